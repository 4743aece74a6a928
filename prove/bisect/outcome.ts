import type { Attempt } from "../outcome/types.ts";
import type { ProbeOutcome } from "./search.ts";

/** A commit's outcome from its runs, and why it counts as skipped when it does. */
export interface Judged {
  readonly outcome: ProbeOutcome;
  /** "flaky: passed 2 of 3 runs" or "could not run (install): install failed: …"; null for pass and fail. */
  readonly why: string | null;
  /** The runs were mixed: some passed, some failed, none errored. */
  readonly flaky: boolean;
}

/** The first sentence of an error's first line: what a step's progress line and the steps table can hold. */
function firstSentence(message: string): string {
  const line =
    message
      .split("\n")
      .find((text) => text.trim() !== "")
      ?.trim() ?? "";
  const end = line.search(/\.\s/);
  return end === -1 ? line : line.slice(0, end + 1);
}

/**
 * A commit's outcome from its runs (one, or `--repeat n`): pass only when every run passed, fail
 * only when every run failed. A run that could not run (install, build, boot, …) makes the commit
 * a skip, as `git bisect run`'s exit 125; so do runs that disagree (flaky), since neither outcome
 * can be trusted there.
 */
export function judgeAttempts(attempts: ReadonlyArray<Attempt>): Judged {
  const error = attempts.find((attempt) => attempt.outcome === "error");
  if (attempts.length === 0) return { outcome: "skip", why: "could not run: no run was made", flaky: false };
  if (error !== undefined) {
    return {
      outcome: "skip",
      why: `could not run (${error.error?.kind ?? "error"}): ${firstSentence(error.error?.message ?? "no error recorded")}`,
      flaky: false,
    };
  }
  const passed = attempts.filter((attempt) => attempt.outcome === "passed").length;
  if (passed === attempts.length) return { outcome: "pass", why: null, flaky: false };
  if (passed === 0) return { outcome: "fail", why: null, flaky: false };
  return { outcome: "skip", why: `flaky: passed ${passed} of ${attempts.length} runs, failed the others`, flaky: true };
}

/**
 * Why a commit's runs so far already make it a skip, which more runs cannot undo: one could not
 * run, or two disagree. Undefined while every run agrees.
 */
export function settledSkip(runs: ReadonlyArray<Attempt>): string | undefined {
  const judged = judgeAttempts(runs);
  return runs.length > 0 && judged.outcome === "skip" ? `the commit is already skipped (${judged.why ?? "skip"})` : undefined;
}
