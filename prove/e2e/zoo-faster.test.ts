import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listBugs } from "../demo/index.ts";
import type { ProofReport } from "../index.ts";
import { checkout, processesMentioning, startProver } from "./support/prover.ts";

/**
 * The zoo's performance bug: its scenario passes on both sides (the reply is the same), and its fix
 * is proved by measuring, with the options of its `proof` file (--faster task): the end-to-end
 * proof of a performance fix, on the bundled app with its long reply streamed at its transcript's pace.
 */
const perfBug = "reply-markdown-reparsed-per-token";
const bugs = await listBugs(checkout);

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-zoo-faster-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("the zoo's performance bug, proved by demo with the options of its proof file", () => {
  it(`${perfBug}: head's page works less while the long reply streams, sampled in turns after a warm-up a side, with the interval clear of the 10 % margin`, async () => {
    const bug = bugs.find((candidate) => candidate.id === perfBug);
    expect(bug?.options).toEqual(["--faster", "task"]);
    const out = join(work, `demo-${perfBug}`);
    const prover = startProver(["demo", perfBug, "--out", out, "--json"]);
    const run = await prover;

    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as ProofReport;
    expect([report.verdict, report.reasonCode]).toEqual(["proved", "faster"]);
    expect(report.command).toBe(`pnpm prove-scenario demo ${perfBug}`);
    const performance = report.performance;
    if (performance === undefined) throw new Error("the report has no performance section");
    expect(performance).toMatchObject({ mode: "faster", metric: "task", margin: 10, outcome: "faster" });
    // Both sides pass the scenario every time: the proof is in the numbers, not in an assertion.
    expect([...report.base.attempts, ...report.head.attempts].map((attempt) => attempt.outcome)).toEqual(
      Array.from({ length: performance.samples.base.length + performance.samples.head.length }, () => "passed"),
    );
    expect(performance.samples.base.length).toBeGreaterThanOrEqual(4);
    expect(performance.order.slice(0, 4)).toEqual(["base", "head", "head", "base"]);
    expect(performance.decidedOn?.high).toBeLessThan(0.9);
    expect(performance.interval?.high).toBeLessThan(0.9);
    // Every sample of base took more of the page's time than head's median: the work grows with the reply on base only.
    expect(Math.min(...performance.samples.base)).toBeGreaterThan(performance.median.head ?? Number.POSITIVE_INFINITY);
    // Each side's warm-up first, then a progress line per sample with the interval so far.
    expect(run.stderr).toMatch(/^base +run +warm-up, not counted +passed/m);
    expect(run.stderr).toMatch(/^head sample 1: task \d+\.\d ms; head ÷ base: not yet$/m);
    // The plot and one trace per side (its warm-up's, of its one measured block), in the report folder.
    const plot = await sharp(join(out, "images/performance.png")).metadata();
    expect([plot.format, plot.width, plot.height]).toEqual(["png", 720, 360]);
    for (const trace of [...performance.traces.base, ...performance.traces.head]) {
      expect(trace).toMatch(/^(base|head)\/measure-trace\.json\.gz$/);
      expect(JSON.parse(gunzipSync(await readFile(join(out, trace))).toString("utf8"))).toHaveProperty("traceEvents");
    }
    expect([performance.traces.base.length, performance.traces.head.length]).toEqual([1, 1]);
    const markdown = await readFile(join(out, "report.md"), "utf8");
    expect(markdown).toContain("### Performance");
    expect(markdown).toContain(`| samples | ${performance.samples.base.length} | ${performance.samples.head.length} |`);
    expect(markdown).toContain('<img src="images/performance.png"');
    expect((await readdir(tmpdir())).filter((name) => name.startsWith(`scenario-prover-${prover.pid}.`))).toEqual([]);
    expect(await processesMentioning(`scenario-prover-${prover.pid}.`)).toEqual([]);
  });
});
