import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeFasterRepo, type FasterRepo } from "./support/faster-repo.ts";
import { prove, reportDir } from "./support/prover.ts";

let work: string;
let repo: FasterRepo;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-faster-"));
  repo = await makeFasterRepo(work);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const config = "prove/test-fixtures/faster/playwright.config.ts";
const scenario = "prove/test-fixtures/faster/work.e2e.ts";
const against = (name: string) => ["--repo", repo.dir, "--config", config, "--out", join(work, "reports", name)];

describe("prove-scenario --faster", () => {
  it("proves head faster when its page does a fortieth of base's work, sampling the sides in turns after a warm-up each", async () => {
    const { exitCode, report, stderr } = await prove([
      "--base",
      "slow",
      "--head",
      "fast",
      scenario,
      "--faster",
      "work:task",
      "--max-samples",
      "10",
      ...against("faster"),
    ]);
    expect([report.verdict, exitCode, report.reasonCode]).toEqual(["proved", 0, "faster"]);
    expect(report.reason).toMatch(
      /^head is \d+(\.\d)?× faster \(95 % interval .+\) in work's task time, \d samples each: faster by more than the 10 % margin\./,
    );
    const performance = report.performance;
    expect(performance).toMatchObject({
      mode: "faster",
      metric: "work:task",
      margin: 10,
      maxSamples: 10,
      cpuSlowdown: null,
      outcome: "faster",
    });
    const base = performance?.samples.base ?? [];
    const head = performance?.samples.head ?? [];
    expect(base.length).toBe(head.length);
    expect(base.length).toBeGreaterThanOrEqual(4);
    expect(performance?.order.slice(0, 4)).toEqual(["base", "head", "head", "base"]);
    expect(performance?.interval?.high).toBeLessThan(0.9);
    // Every counted run is an attempt of its side; the warm-ups are not counted.
    expect(report.base.attempts).toHaveLength(base.length);
    expect(stderr).toMatch(/^base +run +warm-up, not counted +passed/m);
    expect(stderr).toMatch(/head sample 1: work:task \d+\.\d ms; head ÷ base: not yet/);
    const dir = reportDir(report);
    const plot = await sharp(join(dir, "images/performance.png")).metadata();
    expect([plot.width, plot.height]).toEqual([720, 360]);
    const markdown = await readFile(join(dir, "report.md"), "utf8");
    expect(markdown).toContain("### Performance");
    expect(markdown).toContain(`| samples | ${base.length} | ${head.length} |`);
    expect(markdown).toContain('<img src="images/performance.png"');
  });

  it("finds no clear difference between a commit and itself", async () => {
    const { exitCode, report } = await prove([
      "--base",
      "fast",
      "--head",
      "fast",
      scenario,
      "--faster",
      "task",
      "--max-samples",
      "4",
      ...against("same"),
    ]);
    expect([report.verdict, exitCode, report.reasonCode]).toEqual(["not-proved", 1, "no-clear-difference"]);
    expect(report.reason).toMatch(
      /^No clear difference: head ÷ base \d\.\d\d \(95 % interval .+\) in task time, 4 samples each; head is not faster by the 10 % margin/,
    );
  });

  it("reports a side whose scenario fails as failing, with its error, not as a number", async () => {
    const { exitCode, report } = await prove([
      "--base",
      "slow",
      "--head",
      "broken",
      scenario,
      "--not-slower",
      "task",
      ...against("broken"),
    ]);
    expect([report.verdict, exitCode, report.reasonCode]).toEqual(["not-proved", 1, "fails-on-head"]);
    expect(report.reason).toMatch(
      /^The scenario fails on head \(broken\) with assertion at prove\/test-fixtures\/faster\/work\.e2e\.ts:\d+: .*toHaveText/,
    );
    expect(report.head.attempts.map((attempt) => attempt.outcome)).toEqual(["failed"]);
    expect(report.performance?.outcome).toBeNull();
    expect(existsSync(join(reportDir(report), "report.md"))).toBe(true);
  });
});
