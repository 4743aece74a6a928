import { Context, type Effect } from "effect";
import type { SideName } from "../outcome/types.ts";

export type StepName = "refs" | "scenario" | "worktrees" | "worktree" | "install" | "build" | "boot" | "run" | "report" | "cleanup";

export interface StepLabel {
  readonly side?: SideName;
  readonly step: StepName;
  /** What the step does, e.g. the install command. */
  readonly detail?: string;
}

/** Progress for a person, on stderr: one line per finished step with its duration. */
export interface ProgressShape {
  /** Runs `effect` as a step and prints how long it took, or that it failed. */
  readonly step: <A, E, R>(label: StepLabel, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>;
  /** Prints a step measured elsewhere (the app's boot, as the harness recorded it). */
  readonly done: (label: StepLabel, durationMs: number, outcome?: string) => Effect.Effect<void>;
  readonly line: (text: string) => Effect.Effect<void>;
}

export class Progress extends Context.Service<Progress, ProgressShape>()("prove/Progress") {}
