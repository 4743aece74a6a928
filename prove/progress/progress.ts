import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";

/** The steps progress names. */
export type StepName =
  "sandbox" | "refs" | "scenario" | "worktree" | "install" | "build" | "boot" | "run" | "stopped" | "report" | "publish" | "cleanup";

export interface StepLabel {
  /** Which side the step belongs to: "base", "head", or "at" for `run --at`. */
  readonly side?: string;
  readonly step: StepName;
  /** What the step does, e.g. the install command. */
  readonly detail?: string;
}

/** A finished step and how long it took. */
export interface TimedStep {
  readonly label: StepLabel;
  readonly ms: number;
}

/** Progress for a person, on stderr: one line per finished step with its duration. */
export interface ProgressShape {
  /** Runs `effect` as a step and prints how long it took, or that it failed. */
  readonly step: <A, E, R>(label: StepLabel, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>;
  /** Prints a step measured elsewhere, with how it ended. */
  readonly done: (label: StepLabel, durationMs: number, outcome?: string) => Effect.Effect<void>;
  /** Prints how a step ended, in its own words (a run with its two durations); `ms` is recorded as its duration when given. */
  readonly ended: (label: StepLabel, text: string, ms?: number) => Effect.Effect<void>;
  /** Prints that a long step has started, so a person knows what is running. */
  readonly started: (label: StepLabel) => Effect.Effect<void>;
  /** Prints a line as it is. */
  readonly line: (text: string) => Effect.Effect<void>;
  /** Every step finished so far with its duration, in the order they finished; the report's timings. */
  readonly timed: Effect.Effect<ReadonlyArray<TimedStep>>;
}

export class Progress extends Context.Service<Progress, ProgressShape>()("prove/Progress") {}
