import { describeTimeout, expectTimeoutOfMessage, timedOut, timeoutKeys, type TimedOut } from "./timed-out.ts";
import type { Attempt, AttemptError, ExitCode, Outcome, ReasonCode, Verdict } from "./types.ts";

export interface SideAttempts {
  readonly ref: string;
  readonly attempts: ReadonlyArray<Attempt>;
}

export interface Decision {
  readonly verdict: Verdict;
  readonly exitCode: ExitCode;
  readonly reasonCode: ReasonCode;
  readonly reason: string;
}

const every = (attempts: ReadonlyArray<Attempt>, outcome: Outcome) =>
  attempts.length > 0 && attempts.every((attempt) => attempt.outcome === outcome);

const firstError = (attempts: ReadonlyArray<Attempt>, outcome: Outcome): AttemptError | undefined =>
  attempts.find((attempt) => attempt.outcome === outcome && attempt.error !== undefined)?.error;

/** "assertion at scenarios/x.e2e.ts:18: Expected …" — the first line a person needs. */
export function describeError(error: AttemptError | undefined): string {
  if (error === undefined) return "no error recorded";
  const firstLine = error.message.split("\n").find((line) => line.trim() !== "") ?? "";
  const where = error.location === undefined ? "" : ` at ${error.location}`;
  return `${error.kind}${where}: ${firstLine.trim()}`;
}

function tally(attempts: ReadonlyArray<Attempt>): string {
  const count = (outcome: Outcome) => attempts.filter((attempt) => attempt.outcome === outcome).length;
  const parts = (["failed", "passed", "error"] as const)
    .filter((outcome) => count(outcome) > 0)
    .map((outcome) => `${outcome} ${count(outcome)} of ${attempts.length}`);
  return parts.join(", ");
}

/**
 * The verdict of a proof, checked in order: a side that could not run (base first), mixed results
 * (flaky), base passing, both sides timing out (says nothing of the fix), head failing; else proved.
 */
export function decide(base: SideAttempts, head: SideAttempts): Decision {
  const baseError = firstError(base.attempts, "error");
  const headError = firstError(head.attempts, "error");
  // An error on either side is named before a side that ran nothing: the error is why the proof could not run.
  if (baseError !== undefined || (headError === undefined && base.attempts.length === 0)) {
    return {
      verdict: "could-not-run",
      exitCode: 2,
      reasonCode: "base-error",
      reason: `The scenario could not run on base (${base.ref}): ${describeError(baseError)}`,
    };
  }
  if (headError !== undefined || head.attempts.length === 0) {
    return {
      verdict: "could-not-run",
      exitCode: 2,
      reasonCode: "head-error",
      reason: `The scenario could not run on head (${head.ref}): ${describeError(headError)}`,
    };
  }
  const baseSteady = every(base.attempts, "failed") || every(base.attempts, "passed");
  const headSteady = every(head.attempts, "failed") || every(head.attempts, "passed");
  if (!baseSteady || !headSteady) {
    return {
      verdict: "not-proved",
      exitCode: 1,
      reasonCode: "flaky",
      reason: `The scenario gave mixed results (base ${base.ref}: ${tally(base.attempts)}; head ${head.ref}: ${tally(head.attempts)}); make it deterministic before it can prove a fix.`,
    };
  }
  if (every(base.attempts, "passed")) {
    return {
      verdict: "not-proved",
      exitCode: 1,
      reasonCode: "passes-on-base",
      reason: `The scenario passes on base (${base.ref}), so it does not reproduce the bug there; make it fail on base first.`,
    };
  }
  const bothTimedOut = timedOutEveryTime(base.attempts, head.attempts);
  if (bothTimedOut !== undefined) {
    const [baseTimeout, headTimeout] = bothTimedOut;
    return {
      verdict: "not-proved",
      exitCode: 1,
      reasonCode: "times-out-on-both",
      reason:
        `The scenario timed out on both sides, so it cannot tell whether the change fixes the bug: base (${base.ref}) ${describeTimeout(baseTimeout)}, ` +
        `and head (${head.ref}) ${describeTimeout(headTimeout)}. Raise ${timeoutKeys(new Set([baseTimeout.by, headTimeout.by]))}, ` +
        "or make that step wait for what the app needs (a route the dev server compiles on its first request: ask for it before the test with app.ready.warm), then prove again.",
    };
  }
  if (every(head.attempts, "failed")) {
    const headTimeout = everyTimeout(head.attempts, true);
    const baseFailure = `base failed with ${describeError(firstError(base.attempts, "failed"))}`;
    return {
      verdict: "not-proved",
      exitCode: 1,
      reasonCode: "fails-on-head",
      reason:
        headTimeout === undefined
          ? `The scenario fails on head (${head.ref}) as well, so the change does not fix it: ${describeError(firstError(head.attempts, "failed"))}`
          : headTimeout.by === "action"
            ? `The scenario fails on head (${head.ref}) as well: head ${describeTimeout(headTimeout)} (${baseFailure}). ` +
              "Check that step against head's failure screenshot: if what it waits for comes later on head (a route compiled on its first request), " +
              `ask for that route before the test with app.ready.warm or raise ${timeoutKeys(new Set(["action"]))}, then prove again; otherwise the change does not fix it.`
            : `The scenario fails on head (${head.ref}) as well, but by a timeout, which does not show that the change does not fix it: head ${describeTimeout(headTimeout)}` +
              ` (${baseFailure}). Raise ${timeoutKeys(new Set([headTimeout.by]))}, or make that step wait for what the app needs (a route the dev server compiles on its first request: ask for it before the test with app.ready.warm), then prove again.`,
    };
  }
  const baseFailure = firstError(base.attempts, "failed");
  return {
    verdict: "proved",
    exitCode: 0,
    reasonCode: "proved",
    reason: `The scenario fails on base (${base.ref}) with ${describeError(baseFailure)}, and passes on head (${head.ref}).${waitedOut(baseFailure)}`,
  };
}

/**
 * Each side's first timeout, when every attempt of both sides failed by the test's or an expect's timeout; undefined
 * otherwise. An action's own timeout does not count: bounded in a proof, it says its element never came, with where.
 */
function timedOutEveryTime(base: ReadonlyArray<Attempt>, head: ReadonlyArray<Attempt>): readonly [TimedOut, TimedOut] | undefined {
  const [first, second] = [everyTimeout(base, false), everyTimeout(head, false)];
  return first === undefined || second === undefined ? undefined : [first, second];
}

/** A side's first timeout, when every one of its attempts failed by a timeout (an action's counting when `actions`); undefined otherwise. */
function everyTimeout(attempts: ReadonlyArray<Attempt>, actions: boolean): TimedOut | undefined {
  const timeouts = attempts.map(timedOut).map((timeout) => (timeout?.by === "action" && !actions ? undefined : timeout));
  return timeouts.includes(undefined) ? undefined : timeouts[0];
}

/** A sentence saying base failed by a timeout (for an expect's, how to wait less); empty otherwise. */
function waitedOut(error: AttemptError | undefined): string {
  if (error === undefined) return "";
  if (error.kind === "timeout") return " Base failed by reaching the test timeout.";
  const action = timedOut({ outcome: "failed", durationMs: 0, runMs: null, error });
  if (action?.by === "action") return ` Base ${describeTimeout(action)}.`;
  const expectTimeout = expectTimeoutOfMessage(error.message);
  return error.kind === "assertion" && expectTimeout !== undefined
    ? ` Base failed by waiting out the expect timeout (${expectTimeout} ms); a proof can wait less with --expect-timeout or the config's proof.expectTimeout.`
    : "";
}
