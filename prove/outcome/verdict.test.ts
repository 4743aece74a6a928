import { describe, expect, it } from "vitest";
import type { Attempt, Outcome } from "./types.ts";
import { decide } from "./verdict.ts";

/** A test timeout that stopped a click, and an expect that waited out its timeout for an element never there, as classify gives them. */
const testTimeout: Attempt = {
  outcome: "failed",
  durationMs: 60_000,
  runMs: 61_000,
  error: { kind: "timeout", message: "Test timeout of 60000ms exceeded.", location: "s.e2e.ts:14" },
  errors: [
    { kind: "timeout", message: "Test timeout of 60000ms exceeded.", location: "s.e2e.ts:14" },
    {
      kind: "timeout",
      message: "Error: locator.click: Test timeout of 60000ms exceeded.\nCall log:\n  - waiting for getByRole('button')",
      location: "s.e2e.ts:14",
    },
  ],
};
const expectTimeout: Attempt = {
  outcome: "failed",
  durationMs: 5_100,
  runMs: 6_000,
  error: {
    kind: "assertion",
    message:
      "Error: expect(locator).toBeVisible() failed\n\nLocator: getByRole('button')\nExpected: visible\nTimeout: 5000ms\nError: element(s) not found\n",
    location: "s.e2e.ts:9",
  },
};

/** An action that waited out its own timeout (a proof bounds it) for an element never there, as a proof's run gives it. */
const actionTimeout: Attempt = {
  outcome: "failed",
  durationMs: 3_100,
  runMs: 4_000,
  error: {
    kind: "app-error",
    message: "TimeoutError: locator.fill: Timeout 3000ms exceeded.\nCall log:\n  - waiting for getByLabel('c')",
    location: "s.e2e.ts:6",
  },
};

function attempts(outcomes: string): Attempt[] {
  const byLetter: Record<string, Outcome> = { P: "passed", F: "failed", E: "error" };
  return [...outcomes].map((letter) => {
    if (letter === "T") return testTimeout;
    if (letter === "X") return expectTimeout;
    if (letter === "A") return actionTimeout;
    const outcome = byLetter[letter];
    if (outcome === undefined) throw new Error(`unknown outcome letter ${letter}`);
    return outcome === "passed"
      ? { outcome, durationMs: 1, runMs: 2 }
      : {
          outcome,
          durationMs: 1,
          runMs: 2,
          error: { kind: outcome === "failed" ? "assertion" : "boot", message: `${outcome} here\nmore`, location: "s.e2e.ts:3" },
        };
  });
}

// P passed, F failed (an assertion), E error, T failed by the test timeout, X failed by an expect
// that waited out its timeout for an element never found, A failed by an action that waited out its own timeout;
// one letter per attempt (--repeat n gives n letters).
const table: ReadonlyArray<readonly [base: string, head: string, verdict: string, exitCode: number, reasonCode: string]> = [
  ["F", "P", "proved", 0, "proved"],
  ["FFF", "PPP", "proved", 0, "proved"],
  ["P", "P", "not-proved", 1, "passes-on-base"],
  ["P", "F", "not-proved", 1, "passes-on-base"],
  ["PPP", "FFF", "not-proved", 1, "passes-on-base"],
  ["F", "F", "not-proved", 1, "fails-on-head"],
  ["FF", "FF", "not-proved", 1, "fails-on-head"],
  ["T", "T", "not-proved", 1, "times-out-on-both"],
  ["X", "T", "not-proved", 1, "times-out-on-both"],
  ["TT", "XX", "not-proved", 1, "times-out-on-both"],
  ["F", "T", "not-proved", 1, "fails-on-head"],
  ["T", "F", "not-proved", 1, "fails-on-head"],
  ["TF", "TT", "not-proved", 1, "fails-on-head"],
  ["T", "P", "proved", 0, "proved"],
  // An action's own timeout, bounded in a proof, is its step failing: not a timeout of both sides.
  ["A", "A", "not-proved", 1, "fails-on-head"],
  ["T", "A", "not-proved", 1, "fails-on-head"],
  ["A", "T", "not-proved", 1, "fails-on-head"],
  ["A", "P", "proved", 0, "proved"],
  ["T", "TP", "not-proved", 1, "flaky"],
  ["FPF", "PPP", "not-proved", 1, "flaky"],
  ["FFF", "PFP", "not-proved", 1, "flaky"],
  ["PF", "PF", "not-proved", 1, "flaky"],
  ["PPP", "PFP", "not-proved", 1, "flaky"],
  ["E", "P", "could-not-run", 2, "base-error"],
  ["E", "E", "could-not-run", 2, "base-error"],
  ["FE", "PP", "could-not-run", 2, "base-error"],
  ["", "P", "could-not-run", 2, "base-error"],
  ["F", "E", "could-not-run", 2, "head-error"],
  ["P", "E", "could-not-run", 2, "head-error"],
  ["FF", "PE", "could-not-run", 2, "head-error"],
  ["FPF", "EP", "could-not-run", 2, "head-error"],
  // A side stopped before any attempt because the other could not run: the other side's error is the reason.
  ["", "E", "could-not-run", 2, "head-error"],
  ["E", "", "could-not-run", 2, "base-error"],
  ["", "", "could-not-run", 2, "base-error"],
];

describe("the verdict", () => {
  it.each(table)("base %s, head %s → %s, exit %i, %s", (base, head, verdict, exitCode, reasonCode) => {
    const decision = decide({ ref: "main", attempts: attempts(base) }, { ref: "fix", attempts: attempts(head) });
    expect([decision.verdict, decision.exitCode, decision.reasonCode]).toEqual([verdict, exitCode, reasonCode]);
  });

  it("says in the reason which side failed, where, and with what", () => {
    expect(decide({ ref: "main", attempts: attempts("F") }, { ref: "fix", attempts: attempts("P") }).reason).toBe(
      "The scenario fails on base (main) with assertion at s.e2e.ts:3: failed here, and passes on head (fix).",
    );
    expect(decide({ ref: "main", attempts: attempts("E") }, { ref: "fix", attempts: attempts("P") }).reason).toBe(
      "The scenario could not run on base (main): boot at s.e2e.ts:3: error here",
    );
    expect(decide({ ref: "main", attempts: attempts("FPF") }, { ref: "fix", attempts: attempts("PP") }).reason).toBe(
      "The scenario gave mixed results (base main: failed 2 of 3, passed 1 of 3; head fix: passed 2 of 2); make it deterministic before it can prove a fix.",
    );
  });

  it("says where each side timed out and which setting to raise, not that the change does not fix it", () => {
    expect(decide({ ref: "main", attempts: attempts("T") }, { ref: "fix", attempts: attempts("T") }).reason).toBe(
      "The scenario timed out on both sides, so it cannot tell whether the change fixes the bug: " +
        "base (main) reached the test timeout (60000 ms) in locator.click at s.e2e.ts:14, and head (fix) reached the test timeout (60000 ms) in locator.click at s.e2e.ts:14. " +
        "Raise the test timeout (`timeout` in the scenario config), or make that step wait for what the app needs (a route the dev server compiles on its first request: ask for it before the test with app.ready.warm), then prove again.",
    );
    expect(decide({ ref: "main", attempts: attempts("X") }, { ref: "fix", attempts: attempts("T") }).reason).toBe(
      "The scenario timed out on both sides, so it cannot tell whether the change fixes the bug: " +
        "base (main) waited out the expect timeout (5000 ms) in expect(locator).toBeVisible() at s.e2e.ts:9 for an element that never appeared, " +
        "and head (fix) reached the test timeout (60000 ms) in locator.click at s.e2e.ts:14. " +
        "Raise the test timeout (`timeout` in the scenario config) and the expect timeout (a proof's is --expect-timeout, else the config's proof.expectTimeout, else its expect.timeout), " +
        "or make that step wait for what the app needs (a route the dev server compiles on its first request: ask for it before the test with app.ready.warm), then prove again.",
    );
  });

  it("says where head timed out and which setting to raise when only head did, not that the change does not fix it", () => {
    expect(decide({ ref: "main", attempts: attempts("F") }, { ref: "fix", attempts: attempts("T") }).reason).toBe(
      "The scenario fails on head (fix) as well, but by a timeout, which does not show that the change does not fix it: " +
        "head reached the test timeout (60000 ms) in locator.click at s.e2e.ts:14 (base failed with assertion at s.e2e.ts:3: failed here). " +
        "Raise the test timeout (`timeout` in the scenario config), or make that step wait for what the app needs (a route the dev server compiles on its first request: ask for it before the test with app.ready.warm), then prove again.",
    );
    expect(decide({ ref: "main", attempts: attempts("FF") }, { ref: "fix", attempts: attempts("TF") }).reason).toBe(
      "The scenario fails on head (fix) as well, so the change does not fix it: timeout at s.e2e.ts:14: Test timeout of 60000ms exceeded.",
    );
  });

  it("names the action and what it waited for when head failed by an action's timeout, and what to change when it only came late", () => {
    expect(decide({ ref: "main", attempts: attempts("F") }, { ref: "fix", attempts: attempts("A") }).reason).toBe(
      "The scenario fails on head (fix) as well: head waited out the action timeout (3000 ms) in locator.fill at s.e2e.ts:6 for getByLabel('c'), which never appeared " +
        "(base failed with assertion at s.e2e.ts:3: failed here). Check that step against head's failure screenshot: " +
        "if what it waits for comes later on head (a route compiled on its first request), ask for that route before the test with app.ready.warm " +
        "or raise the action timeout (a proof's is the config's proof.actionTimeout, else the expect timeout, unless its use sets actionTimeout or navigationTimeout), " +
        "then prove again; otherwise the change does not fix it.",
    );
    const failedWith = (message: string): Attempt[] => [
      { outcome: "failed", durationMs: 1, runMs: 2, error: { kind: "app-error", message, location: "s.e2e.ts:6" } },
    ];
    const disabled =
      "TimeoutError: locator.click: Timeout 3000ms exceeded.\nCall log:\n  - waiting for getByRole('button', { name: 'Add' })\n" +
      "  - locator resolved to <button disabled>Add</button>\n  - attempting click action\n  - element is not enabled\n\n" +
      "Calls the route refused (their hosts are neither routed to the replay agent nor allowed, app.route):\n- GET fonts.example.com/x";
    expect(decide({ ref: "main", attempts: failedWith(disabled) }, { ref: "fix", attempts: attempts("P") }).reason).toBe(
      "The scenario fails on base (main) with app-error at s.e2e.ts:6: TimeoutError: locator.click: Timeout 3000ms exceeded., and passes on head (fix). " +
        "Base waited out the action timeout (3000 ms) in locator.click at s.e2e.ts:6 for getByRole('button', { name: 'Add' }), " +
        "which it found but could not act on (element is not enabled).",
    );
    const navigation =
      'TimeoutError: page.goto: Timeout 3000ms exceeded.\nCall log:\n  - navigating to "http://127.0.0.1:4000/cart", waiting until "load"\n';
    expect(decide({ ref: "main", attempts: failedWith(navigation) }, { ref: "fix", attempts: attempts("P") }).reason).toBe(
      "The scenario fails on base (main) with app-error at s.e2e.ts:6: TimeoutError: page.goto: Timeout 3000ms exceeded., and passes on head (fix). " +
        'Base waited out the navigation timeout (3000 ms) in page.goto at s.e2e.ts:6 (navigating to "http://127.0.0.1:4000/cart", waiting until "load").',
    );
  });

  it("says when base failed by waiting out the expect timeout or the test timeout, which a proof can shorten", () => {
    const failedBy = (kind: "assertion" | "timeout", message: string): Attempt[] => [
      { outcome: "failed", durationMs: 1, runMs: 2, error: { kind, message, location: "s.e2e.ts:3" } },
    ];
    const expectMessage =
      'Error: expect(locator).toHaveText(expected) failed\n\nLocator:  getByRole(\'status\')\nExpected: "Total: 3"\nReceived: "Total: 12"\nTimeout:  5000ms\n';
    expect(decide({ ref: "main", attempts: failedBy("assertion", expectMessage) }, { ref: "fix", attempts: attempts("P") }).reason).toBe(
      "The scenario fails on base (main) with assertion at s.e2e.ts:3: Error: expect(locator).toHaveText(expected) failed, and passes on head (fix). " +
        "Base failed by waiting out the expect timeout (5000 ms); a proof can wait less with --expect-timeout or the config's proof.expectTimeout.",
    );
    expect(
      decide({ ref: "main", attempts: failedBy("timeout", "Test timeout of 60000ms exceeded.") }, { ref: "fix", attempts: attempts("P") })
        .reason,
    ).toBe(
      "The scenario fails on base (main) with timeout at s.e2e.ts:3: Test timeout of 60000ms exceeded., and passes on head (fix). Base failed by reaching the test timeout.",
    );
  });
});
