import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../package-root.ts";
import { claimFile } from "../engine/report-claim.ts";
import { ownerToken } from "../../common/ownership.ts";
import { shardSlice } from "../engine/scenarios.ts";
import { MergeRefused } from "./errors.ts";
import { mergeSummaries } from "./merge.ts";
import type { ProofSummary, SummaryRow } from "./schema.ts";
import { overall, sortRows } from "./summarize.ts";
import { writeSummary } from "./write-summary.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const row = (file: string, verdict: SummaryRow["verdict"]): SummaryRow => ({
  file,
  title: `${file} works`,
  verdict,
  exitCode: verdict === "proved" ? 0 : verdict === "not-proved" ? 1 : 2,
  reasonCode: verdict === "proved" ? "proved" : verdict === "not-proved" ? "passes-on-base" : "base-error",
  reason: `${file}: ${verdict}`,
  dir: file.replace(/\.e2e\.ts$/, ""),
  report: `${file.replace(/\.e2e\.ts$/, "")}/report.md`,
  redactions: { environment: verdict === "proved" ? 1 : 0, secretShaped: verdict === "not-proved" ? 2 : 0 },
});

const commit = (sha: string) => ({ ref: sha, sha: sha.repeat(40).slice(0, 40), subject: `commit ${sha}` });

function summaryOf(rows: ReadonlyArray<SummaryRow>, shard: ProofSummary["shard"], shas = ["a", "b"]): ProofSummary {
  const sorted = sortRows(rows);
  return {
    schema: "scenario-proof-summary/v1",
    ...overall(sorted),
    base: commit(shas[0] ?? "a"),
    head: commit(shas[1] ?? "b"),
    shard,
    scenarios: sorted,
    markdown: "summary.md",
    timings: { totalMs: 1000 },
    command: "pnpm prove-scenario --base aaaa --head bbbb scenarios",
  };
}

/** A shard's folder as a proof writes it: summary.json, summary.md, and a report folder per row. */
async function shardFolder(summary: ProofSummary): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "prove-shard-"));
  scratch.push(dir);
  for (const each of summary.scenarios) {
    await mkdir(join(dir, each.dir), { recursive: true });
    await writeFile(join(dir, each.report), `# ${each.file}\n`);
  }
  await writeSummary(dir, summary);
  return dir;
}

async function refusal(dirs: ReadonlyArray<string>, out: string): Promise<string> {
  const thrown = await mergeSummaries(dirs, out).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(MergeRefused);
  return (thrown as MergeRefused).message;
}

describe("shards and summaries", () => {
  it.each([0, 1, 2, 3, 5, 7])(
    "cut %i scenarios into n slices that hold each exactly once, in order, none more than one longer than another",
    (count) => {
      const list = Array.from({ length: count }, (_unused, index) => `s${index}`);
      for (const total of [1, 2, 3, 4]) {
        const slices = Array.from({ length: total }, (_unused, index) => shardSlice(list, { index: index + 1, total }));
        expect(slices.flat()).toEqual(list);
        const sizes = slices.map((slice) => slice.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    },
  );

  it("give the summary the worst row's verdict, could-not-run over not-proved, and count each, and add up what the rows' reports redacted", () => {
    expect(overall([row("a.e2e.ts", "proved"), row("b.e2e.ts", "proved")])).toEqual({
      verdict: "proved",
      exitCode: 0,
      counts: { proved: 2, notProved: 0, couldNotRun: 0 },
      reason: "2 of 2 scenarios proved.",
      redactions: { environment: 2, secretShaped: 0 },
    });
    expect(overall([row("a.e2e.ts", "proved"), row("b.e2e.ts", "not-proved"), row("c.e2e.ts", "not-proved")]).redactions).toEqual({
      environment: 1,
      secretShaped: 4,
    });
    // A row from a summary written before rows counted them adds nothing.
    const { redactions: _none, ...older } = row("d.e2e.ts", "proved");
    expect(overall([row("a.e2e.ts", "proved"), older as SummaryRow]).redactions).toEqual({ environment: 1, secretShaped: 0 });
    expect(overall([row("a.e2e.ts", "not-proved"), row("b.e2e.ts", "proved")])).toMatchObject({
      verdict: "not-proved",
      exitCode: 1,
      reason: "1 of 2 scenarios proved, 1 not proved.",
    });
    expect(overall([row("a.e2e.ts", "not-proved"), row("b.e2e.ts", "could-not-run"), row("c.e2e.ts", "proved")])).toMatchObject({
      verdict: "could-not-run",
      exitCode: 2,
      reason: "1 of 3 scenarios proved, 1 not proved, 1 could not run.",
    });
  });

  it("merge shards given in any order into the summary one proof writes, with every report folder beside it", async () => {
    const rows = [row("a.e2e.ts", "proved"), row("b.e2e.ts", "not-proved"), row("c.e2e.ts", "proved")];
    const whole = summaryOf(rows, null);
    const first = await shardFolder(summaryOf(rows.slice(0, 2), { index: 1, total: 2 }));
    const second = await shardFolder(summaryOf(rows.slice(2), { index: 2, total: 2 }));
    const dir = await mkdtemp(join(tmpdir(), "prove-merged-"));
    scratch.push(dir);
    const out = join(dir, "all");

    const merged = await mergeSummaries([second, first], out);
    expect(merged).toEqual(whole);
    expect(JSON.parse(await readFile(join(out, "summary.json"), "utf8"))).toEqual(whole);
    for (const each of rows) expect(existsSync(join(out, each.report))).toBe(true);
    const markdown = await readFile(join(out, "summary.md"), "utf8");
    expect(markdown).toContain("## ❌ Not proved: 2 of 3 scenarios proved, 1 not proved");
    expect(markdown).toContain("| ❌ | [b.e2e.ts › b.e2e.ts works](b/report.md) | **passes-on-base** — b.e2e.ts: not-proved |");
  });

  it("merge a shard that could not run into a summary that could not run, saying which and why", async () => {
    const first = await shardFolder(summaryOf([row("a.e2e.ts", "proved")], { index: 1, total: 2 }));
    const stopped = {
      ...summaryOf([], { index: 2, total: 2 }),
      verdict: "could-not-run" as const,
      exitCode: 2 as const,
      reason: '--head "nope" does not name a commit',
    };
    const second = await shardFolder(stopped);
    const merged = await mergeSummaries([first, second], join(first, "merged"));
    expect([merged.verdict, merged.exitCode, merged.reason]).toEqual([
      "could-not-run",
      2,
      `${second}: --head "nope" does not name a commit`,
    ]);
  });

  it("refuse to merge proofs of other commits, a missing or doubled shard, a scenario twice, or a folder with no summary, naming them", async () => {
    const first = await shardFolder(summaryOf([row("a.e2e.ts", "proved")], { index: 1, total: 2 }));
    const second = await shardFolder(summaryOf([row("b.e2e.ts", "proved")], { index: 2, total: 2 }));
    const otherCommits = await shardFolder(summaryOf([row("b.e2e.ts", "proved")], { index: 2, total: 2 }, ["a", "c"]));
    const again = await shardFolder(summaryOf([row("a.e2e.ts", "proved")], null));
    const out = join(first, "merged");

    expect(await refusal([first, otherCommits], out)).toBe(
      `merge: the folders prove different commits, so their verdicts do not add up:\n  ${first}: base aaaaaaa, head bbbbbbb\n  ${otherCommits}: base aaaaaaa, head ccccccc\nMerge only the shards of one proof (the same --base and --head).`,
    );
    expect(await refusal([second], out)).toBe(
      "merge: shard 1/2 missing. Pass the folder of every shard, each once, so the summary covers every scenario.",
    );
    expect(await refusal([first, first, second], out)).toBe(
      "merge: shard 1/2 given twice. Pass the folder of every shard, each once, so the summary covers every scenario.",
    );
    expect(await refusal([first, again], out)).toContain("merge: the folders come from different splits");
    const plain = await shardFolder(summaryOf([row("a.e2e.ts", "proved")], null));
    expect(await refusal([plain, again], out)).toBe(
      `merge: a.e2e.ts › a.e2e.ts works is in both ${plain} and ${again}. Merge folders that prove different scenarios.`,
    );
    expect(await refusal([out], out)).toContain(`merge: ${out} holds no summary.json of a proof.`);
  });

  it("merge into an --out folder another proof or merge is writing refuses, exit 2, writing nothing there; once free, it merges and lets it go", async () => {
    const rows = [row("a.e2e.ts", "proved"), row("b.e2e.ts", "proved")];
    const first = await shardFolder(summaryOf(rows.slice(0, 1), { index: 1, total: 2 }));
    const second = await shardFolder(summaryOf(rows.slice(1), { index: 2, total: 2 }));
    const dir = await mkdtemp(join(tmpdir(), "prove-merged-"));
    scratch.push(dir);
    const out = join(dir, "all");
    await mkdir(out);
    // This test's own process holds it, as a live proof would.
    await writeFile(join(out, claimFile), ownerToken());
    const merge = () =>
      execa("node", [join(packageRoot, "bin/prove-scenario.mjs"), "merge", first, second, "--out", out], {
        reject: false,
        stdin: "ignore",
      });

    const refused = await merge();
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`--out ${out} is being written by another proof running now (pid ${process.pid}).`);
    expect(await readdir(out)).toEqual([claimFile]);

    await rm(join(out, claimFile));
    const merged = await merge();
    expect(merged.exitCode, merged.stderr).toBe(0);
    expect((await readdir(out)).sort()).toEqual(["a", "b", "summary.json", "summary.md"]);
  });
});
