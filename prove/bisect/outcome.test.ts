import { describe, expect, it } from "vitest";
import type { Attempt } from "../outcome/types.ts";
import { judgeAttempts, settledSkip } from "./outcome.ts";

const passed: Attempt = { outcome: "passed", durationMs: 900, runMs: 4000 };
const failed: Attempt = {
  outcome: "failed",
  durationMs: 5200,
  runMs: 8000,
  error: { kind: "assertion", message: "expect(locator).toHaveText(expected) failed\n\nLocator: …" },
};
const installFailed: Attempt = {
  outcome: "error",
  durationMs: 400,
  runMs: null,
  error: {
    kind: "install",
    message:
      "install failed: `pnpm install --frozen-lockfile` in the repository's root at 1a2b3c4 exited with code 1. Fix the install at this commit, or set app.install.\nLast lines of its log:\n…",
  },
};
const bootFailed: Attempt = {
  outcome: "error",
  durationMs: 3000,
  runMs: 3500,
  error: { kind: "boot", message: "[scenario-harness:boot] the app exited with code 1 before it was ready" },
};

describe("a commit's outcome from its runs", () => {
  it.each([
    ["one pass", [passed], { outcome: "pass", why: null, flaky: false }],
    ["one failure", [failed], { outcome: "fail", why: null, flaky: false }],
    ["three passes under --repeat 3", [passed, passed, passed], { outcome: "pass", why: null, flaky: false }],
    ["three failures under --repeat 3", [failed, failed, failed], { outcome: "fail", why: null, flaky: false }],
    [
      "runs that disagree: flaky, so skipped",
      [passed, failed, passed],
      { outcome: "skip", why: "flaky: passed 2 of 3 runs, failed the others", flaky: true },
    ],
    [
      "an install that failed: skipped with its first sentence",
      [installFailed],
      {
        outcome: "skip",
        why: "could not run (install): install failed: `pnpm install --frozen-lockfile` in the repository's root at 1a2b3c4 exited with code 1.",
        flaky: false,
      },
    ],
    [
      "an app that did not boot on one run of two: skipped, not flaky",
      [passed, bootFailed],
      {
        outcome: "skip",
        why: "could not run (boot): [scenario-harness:boot] the app exited with code 1 before it was ready",
        flaky: false,
      },
    ],
    ["no run at all", [], { outcome: "skip", why: "could not run: no run was made", flaky: false }],
  ] as const)("%s", (_name, attempts, judged) => {
    expect(judgeAttempts(attempts)).toEqual(judged);
  });
});

describe("a commit's runs under --repeat stop", () => {
  it.each([
    [
      "after runs that disagree: more runs cannot make it pass or fail",
      [passed, failed],
      "the commit is already skipped (flaky: passed 1 of 2 runs, failed the others)",
    ],
    [
      "after a run that could not run",
      [bootFailed],
      "the commit is already skipped (could not run (boot): [scenario-harness:boot] the app exited with code 1 before it was ready)",
    ],
    ["not while every run passed", [passed, passed], undefined],
    ["not while every run failed", [failed], undefined],
    ["not before any run", [], undefined],
  ] as const)("%s", (_name, runs, why) => {
    expect(settledSkip(runs)).toBe(why);
  });
});
