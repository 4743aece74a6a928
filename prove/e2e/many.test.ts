import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createZooSandbox, type ZooSandbox } from "../demo/index.ts";
import type { ProofReport } from "../index.ts";
import type { ProofSummary } from "../summary/schema.ts";
import { checkout, processesMentioning, startProver } from "./support/prover.ts";

/** Three bugs whose fixes touch different files, so each scenario fails on the commit holding all three. */
const bugIds = ["tool-calls-merged-by-id", "completed-before-stream-end", "stop-does-not-abort"];

let sandbox: ZooSandbox;
let work: string;
let whole: ProofSummary;

beforeAll(async () => {
  sandbox = await createZooSandbox({ bugIds, repoRoot: checkout });
  work = await mkdtemp(join(tmpdir(), "prove-many-"));
});

afterAll(async () => {
  await sandbox.dispose();
  await rm(work, { recursive: true, force: true });
});

// Base fails by waiting out an assertion; half the config's 10 s is still ample for head's to pass.
const proofArgs = () => ["--repo", sandbox.dir, "--base", sandbox.base, "--head", sandbox.head, "--config", "playwright.config.ts", "--expect-timeout", "5000"];
const scenarios = () => sandbox.bugs.map((bug) => bug.scenario);

/** How many times a side's install step ran, from the progress lines. */
const installs = (stderr: string, side: string) => stderr.split("\n").filter((line) => line.startsWith(`${side.padEnd(5)} install `)).length;

/** What a summary says, without the time it took. */
const verdicts = (summary: ProofSummary) => ({ ...summary, timings: undefined });

describe("a proof of several scenarios", () => {
  it("installs each side once, runs every scenario against it, and writes each scenario's report and one summary", async () => {
    const out = join(work, "all");
    const run = await startProver([...proofArgs(), ...scenarios(), "--out", out, "--json"]);

    expect(run.exitCode, run.stderr).toBe(0);
    expect([installs(run.stderr, "base"), installs(run.stderr, "head")]).toEqual([1, 1]);
    // The fixes change no dependency manifest: head hard-links base's install instead of installing again.
    expect(run.stderr).toContain("\nhead  install   base's, hard-linked (the same dependency manifests)  ");
    whole = JSON.parse(await readFile(join(out, "summary.json"), "utf8")) as ProofSummary;
    expect(JSON.parse(run.stdout)).toEqual(whole);
    expect(run.stderr.trimEnd().split("\n").slice(-2)).toEqual(["proved (exit 0): 3 of 3 scenarios proved.", `summary: ${join(out, "summary.md")}`]);
    expect(whole).toMatchObject({ schema: "scenario-proof-summary/v1", verdict: "proved", exitCode: 0, shard: null, counts: { proved: 3, notProved: 0, couldNotRun: 0 } });
    expect([whole.base.ref, whole.head.ref]).toEqual(["zoo-bugs", "zoo-fixes"]);
    // Sorted by file, whatever order they were named in.
    const files = [...scenarios()].sort();
    expect(whole.scenarios.map((row) => [row.file, row.verdict, row.report])).toEqual(
      files.map((file) => [file, "proved", `${file.replace(/\.e2e\.ts$/, "")}/report.md`]),
    );

    const markdown = await readFile(join(out, "summary.md"), "utf8");
    expect(markdown).toContain("## ✅ Proved: 3 of 3 scenarios proved");
    for (const row of whole.scenarios) {
      const report = JSON.parse(await readFile(join(out, row.dir, "report.json"), "utf8")) as ProofReport;
      expect([report.verdict, report.scenario.file, report.scenario.title, report.reason]).toEqual(["proved", row.file, row.title, row.reason]);
      expect(report.base.attempts).toMatchObject([{ outcome: "failed" }]);
      expect(report.head.attempts).toMatchObject([{ outcome: "passed" }]);
      expect(report.head.screenshots.length).toBeGreaterThan(0);
      expect(report.command).toMatch(new RegExp(`^pnpm prove-scenario --base [0-9a-f]{12} --head [0-9a-f]{12} ${row.file} --repo .* --expect-timeout 5000$`));
      expect(report.reason).toContain("Base failed by waiting out the expect timeout (5000 ms)");
      expect(markdown).toContain(`](${row.report})`);
    }
    expect(await processesMentioning(sandbox.dir)).toEqual([]);
  });

  it("splits the same scenarios, named in another order, into two shards whose merge is the summary of the one proof", async () => {
    const named = [...scenarios()].reverse();
    const shards: ProofSummary[] = [];
    for (const index of [1, 2]) {
      const run = await startProver([...proofArgs(), ...named, "--shard", `${index}/2`, "--out", join(work, `shard-${index}`)]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect([installs(run.stderr, "base"), installs(run.stderr, "head")]).toEqual([1, 1]);
      shards.push(JSON.parse(await readFile(join(work, `shard-${index}`, "summary.json"), "utf8")) as ProofSummary);
    }
    expect(shards.map((shard) => [shard.shard, shard.scenarios.length])).toEqual([[{ index: 1, total: 2 }, 2], [{ index: 2, total: 2 }, 1]]);

    const merged = await startProver(["merge", join(work, "shard-2"), join(work, "shard-1"), "--out", join(work, "merged"), "--json"]);
    expect(merged.exitCode, merged.stderr).toBe(0);
    const summary = JSON.parse(merged.stdout) as ProofSummary;
    expect(verdicts(summary)).toEqual(verdicts(whole));
    for (const row of summary.scenarios) {
      const report = JSON.parse(await readFile(join(work, "merged", row.dir, "report.json"), "utf8")) as ProofReport;
      expect(report.verdict).toBe("proved");
    }
  });
});
