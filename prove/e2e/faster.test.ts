import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

// Head proved faster, end to end: prove/e2e/zoo-faster.test.ts, the zoo's performance bug.
describe("prove-scenario --faster", () => {
  it("finds no clear difference between a commit and itself, its blocks run with the renderer slowed down as --cpu-slowdown asks", async () => {
    const { exitCode, report } = await prove([
      "--base",
      "fast",
      "--head",
      "fast",
      scenario,
      "--faster",
      "work:task",
      "--max-samples",
      "4",
      "--cpu-slowdown",
      "2",
      ...against("same"),
    ]);
    expect([report.verdict, exitCode, report.reasonCode]).toEqual(["not-proved", 1, "no-clear-difference"]);
    expect(report.reason).toMatch(
      /^No clear difference: head ÷ base \d\.\d\d \(95 % interval .+\) in work's task time, 4 samples each; head is not faster by the 10 % margin/,
    );
    // What the runs' blocks noted, not the option echoed: the factor reached the harness of every run.
    expect(report.performance?.cpuSlowdown).toBe(2);
    expect(await readFile(join(reportDir(report), "report.md"), "utf8")).toContain(", the renderer 2× slower while measured.");
  });

  it("could not run when the scenario measures no block of the label asked for, naming the blocks it measured, after base's warm-up alone", async () => {
    const { exitCode, report } = await prove([
      "--base",
      "slow",
      "--head",
      "fast",
      scenario,
      "--faster",
      "render:task",
      ...against("unmeasured"),
    ]);
    expect([report.verdict, exitCode, report.reasonCode]).toEqual(["could-not-run", 2, "no-measure"]);
    expect(report.reason).toBe(
      `The scenario measured no block labelled "render" on base (slow): it must call app.measure(label, async () => { … }) around the work to compare; it measured "work".`,
    );
    expect([report.base.attempts.length, report.head.attempts.length]).toEqual([1, 0]);
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
    expect(await readFile(join(reportDir(report), "report.md"), "utf8")).toContain("head ÷ base: not compared: a run ended the proof");
  });
});
