import { formatDuration } from "../outcome/durations.ts";
import type { SideName } from "../outcome/types.ts";
import type { StepName, TimedStep } from "../progress/progress.ts";
import type { SideEvidence } from "./evidence.ts";
import type { ReportTimings, RunTimings, SideTimings } from "./schema.ts";

/** The total of a step's durations (a worktree and its submodules are two); null when it did not happen. */
function total(steps: ReadonlyArray<TimedStep>, step: StepName, side: SideName | undefined): number | null {
  const mine = steps.filter((timed) => timed.label.step === step && timed.label.side === side);
  return mine.length === 0 ? null : Math.round(mine.reduce((sum, timed) => sum + timed.ms, 0));
}

function runTimings(side: SideEvidence): ReadonlyArray<RunTimings> {
  return side.attempts.map(({ attempt, artifacts }) => ({
    runMs: attempt.runMs,
    runnerMs: attempt.runMs === null ? null : Math.max(0, attempt.runMs - attempt.durationMs),
    bootMs: artifacts.bootMs ?? null,
    testMs: attempt.durationMs,
  }));
}

function sideTimings(steps: ReadonlyArray<TimedStep>, name: SideName, side: SideEvidence): SideTimings {
  return {
    worktreeMs: total(steps, "worktree", name),
    installMs: total(steps, "install", name),
    buildMs: total(steps, "build", name),
    runs: runTimings(side),
  };
}

/** Where a proof's time went, from its finished steps and both sides' attempts. */
export function reportTimings(input: {
  readonly totalMs: number;
  readonly steps: ReadonlyArray<TimedStep>;
  readonly base: SideEvidence;
  readonly head: SideEvidence;
  readonly reportMs: number;
}): ReportTimings {
  return {
    totalMs: Math.round(input.totalMs),
    listingMs: total(input.steps, "scenario", undefined),
    base: sideTimings(input.steps, "base", input.base),
    head: sideTimings(input.steps, "head", input.head),
    reportMs: Math.round(input.reportMs),
  };
}

const part = (name: string, ms: number | null) => (ms === null ? [] : [`${name} ${formatDuration(ms)}`]);

function sideLine(name: SideName, side: SideTimings): string {
  const runs = side.runs.map((run) =>
    run.runMs === null
      ? `no run`
      : `run ${formatDuration(run.runMs)} (${[...part("runner", run.runnerMs), ...part("boot", run.bootMs), ...part("test", run.testMs)].join(", ")})`,
  );
  const parts = [...part("worktree", side.worktreeMs), ...part("install", side.installMs), ...part("build", side.buildMs), ...runs];
  return `${name} ${parts.length === 0 ? "did not start" : parts.join(", ")}`;
}

/** report.md's one line of where the time went: "Time: 17.1s in all; listing 1.7s; base …; head …; report 0.7s." */
export function timingsLine(timings: ReportTimings): string {
  return (
    [
      `Time: ${formatDuration(timings.totalMs)} in all`,
      ...part("listing", timings.listingMs),
      sideLine("base", timings.base),
      sideLine("head", timings.head),
      `report ${formatDuration(timings.reportMs)}`,
    ].join("; ") + "."
  );
}
