// The statistics of a performance proof: the 95 % interval of head ÷ base for a metric, and what it decides.
import tQuantile from "@stdlib/stats-base-dists-t-quantile";

/** What a performance proof asks: that head is faster by more than the margin, or (a guard) not slower by more than it. */
export type PerfMode = "faster" | "not-slower";

/**
 * How a performance proof ends (each "at 99 %", decisionConfidence):
 * - `faster`: head ÷ base is below 1 − margin (proved, exit 0);
 * - `no-clear-difference`: head is not faster by the margin, or the cap came first (exit 1);
 * - `slower`: head ÷ base is above 1 + margin (exit 1);
 * - `not-slower`: head ÷ base is below 1 + margin (the guard passes, exit 0);
 * - `undecided`: the guard's interval still straddles 1 + margin at the cap (exit 1).
 */
export type PerfOutcome = "faster" | "no-clear-difference" | "slower" | "not-slower" | "undecided";

/** An interval of head ÷ base (the ratio of their means) and what it rests on. */
export interface RatioInterval {
  /** 0.95 for a 95 % interval. */
  readonly confidence: number;
  /** head's mean ÷ base's mean. */
  readonly ratio: number;
  readonly low: number;
  readonly high: number;
  /** Welch's degrees of freedom; Infinity when both sides' samples are each all the same value. */
  readonly df: number;
}

/** The interval a report shows. */
export const shownConfidence = 0.95;

/**
 * The interval a proof stops on. A proof looks again after every pair of samples, and with few,
 * noisy samples (an outlier now and then) a 95 % interval is clear of the margin by chance too
 * often over those looks: the seeded simulation (simulate.ts) proves a loaded machine's same
 * commit faster about 1 time in 200 at 95 %, and about 1 in 1,000 at 99 %.
 */
export const decisionConfidence = 0.99;

/** The fewest samples per side before any decision: fewer give an interval too wide to say anything, and a t quantile too unstable. */
export const minSamples = 4;

export const mean = (values: ReadonlyArray<number>): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The sample variance (n − 1). */
export function variance(values: ReadonlyArray<number>): number {
  const average = mean(values);
  return values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1);
}

/** The middle value; the lower middle of an even count, so that it is always one of the samples. */
export function median(values: ReadonlyArray<number>): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/**
 * The interval of head ÷ base at `confidence`: Welch's t interval of the difference of the means
 * (head − base), divided by base's mean, plus 1. Undefined with fewer than two samples a side, or
 * when base's mean is not above 0 (no ratio to speak of).
 */
export function ratioInterval(
  base: ReadonlyArray<number>,
  head: ReadonlyArray<number>,
  confidence: number = shownConfidence,
): RatioInterval | undefined {
  if (base.length < 2 || head.length < 2) return undefined;
  const baseMean = mean(base);
  if (!(baseMean > 0)) return undefined;
  const headMean = mean(head);
  const baseShare = variance(base) / base.length;
  const headShare = variance(head) / head.length;
  const error = Math.sqrt(baseShare + headShare);
  const ratio = headMean / baseMean;
  if (error === 0) return { confidence, ratio, low: ratio, high: ratio, df: Number.POSITIVE_INFINITY };
  // Welch–Satterthwaite.
  const df = (baseShare + headShare) ** 2 / (baseShare ** 2 / (base.length - 1) + headShare ** 2 / (head.length - 1));
  const half = (tQuantile(1 - (1 - confidence) / 2, df) * error) / baseMean;
  return { confidence, ratio, low: ratio - half, high: ratio + half, df };
}

/** A decision on the samples so far: an outcome, or keep sampling; with the interval it was made on (decisionConfidence). */
export type Step =
  | { readonly kind: "decided"; readonly outcome: PerfOutcome; readonly interval: RatioInterval | undefined }
  | { readonly kind: "continue"; readonly interval: RatioInterval | undefined };

export interface StopRules {
  readonly mode: PerfMode;
  /** The margin as a share: 0.1 for 10 %. */
  readonly margin: number;
  /** The cap, per side. */
  readonly maxSamples: number;
}

/**
 * What the samples so far decide, on their decisionConfidence interval (as tachometer's
 * auto-sampling, each horizon cleared or not): with --faster, `faster` once the interval's high end
 * is below 1 − margin, `slower` once its low end is above 1 + margin (slower by more than the
 * margin), `no-clear-difference` once its low end is above 1 − margin (head cannot be
 * faster by the margin); with --not-slower, `not-slower` once the high end is below 1 + margin,
 * `slower` once the low end is above it. Else sampling goes on until both sides have
 * `maxSamples`, where --faster is `no-clear-difference` and --not-slower is `undecided`. Nothing
 * is decided before `minSamples` a side.
 */
export function decide(rules: StopRules, base: ReadonlyArray<number>, head: ReadonlyArray<number>): Step {
  const interval = ratioInterval(base, head, decisionConfidence);
  const count = Math.min(base.length, head.length);
  const capped = count >= rules.maxSamples;
  const atCap: Step = { kind: "decided", outcome: rules.mode === "faster" ? "no-clear-difference" : "undecided", interval };
  if (count < minSamples || interval === undefined) return capped ? atCap : { kind: "continue", interval };
  if (rules.mode === "faster") {
    if (interval.high < 1 - rules.margin) return { kind: "decided", outcome: "faster", interval };
    if (interval.low > 1 + rules.margin) return { kind: "decided", outcome: "slower", interval };
    if (interval.low > 1 - rules.margin) return { kind: "decided", outcome: "no-clear-difference", interval };
  } else {
    if (interval.high < 1 + rules.margin) return { kind: "decided", outcome: "not-slower", interval };
    if (interval.low > 1 + rules.margin) return { kind: "decided", outcome: "slower", interval };
  }
  return capped ? atCap : { kind: "continue", interval };
}

/** Whether an outcome passes: exit 0. */
export const passes = (outcome: PerfOutcome): boolean => outcome === "faster" || outcome === "not-slower";
