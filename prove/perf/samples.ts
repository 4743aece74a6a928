// What a performance proof's runs gave: each side's samples and why sampling ended.
import type { Commit } from "../git/git.ts";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import type { SideName } from "../outcome/types.ts";
import type { PerfOutcome, RatioInterval } from "./stats.ts";

/** One counted run of a side: the metric's value and the run. */
export interface Sample {
  readonly value: number;
  readonly attempt: ClassifiedAttempt;
}

/** A side's runs: its warm-up (not counted) and its samples, in order. */
export interface SideSamples {
  readonly ref: string;
  readonly commit: Commit;
  readonly warmup: ClassifiedAttempt | undefined;
  readonly samples: ReadonlyArray<Sample>;
}

/** Why sampling ended: decided, or a run that did not give a sample (it failed, could not run, or measured nothing). */
export type SamplingEnd =
  | { readonly kind: "decided"; readonly outcome: PerfOutcome; readonly decidedOn: RatioInterval | undefined }
  | {
      readonly kind: "stopped";
      readonly side: SideName;
      readonly attempt: ClassifiedAttempt;
      readonly why: "failed" | "error" | "no-measure";
    };

export interface Sampled {
  readonly base: SideSamples;
  readonly head: SideSamples;
  readonly end: SamplingEnd;
  /** The sides in the order their samples ran (warm-ups left out). */
  readonly order: ReadonlyArray<SideName>;
}

/** The side order of turn `turn` (from 0): base, head, then head, base, and so on (ABBA). */
export const turnOrder = (turn: number): readonly [SideName, SideName] => (turn % 2 === 0 ? ["base", "head"] : ["head", "base"]);
