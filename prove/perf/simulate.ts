// A seeded simulation of performance proofs over synthetic samples, for the statistics' tests and the docs' table.
import * as Effect from "effect/Effect";
import * as Random from "effect/Random";
import { decide, type PerfOutcome, type StopRules } from "./stats.ts";

/** How a machine's samples vary: `quiet` a little, `loaded` a lot, with an outlier now and then. */
export interface Noise {
  /** The spread of a sample around its side's value, as the standard deviation of its logarithm. */
  readonly spread: number;
  /** The share of samples hit by an outlier. */
  readonly outliers: number;
  /** How much longer an outlier takes: a factor. */
  readonly outlierFactor: number;
}

export const quiet: Noise = { spread: 0.05, outliers: 0, outlierFactor: 1 };
export const loaded: Noise = { spread: 0.25, outliers: 0.1, outlierFactor: 2.5 };

/** A standard normal draw from two uniform ones (Box–Muller). */
const normal = Effect.gen(function* () {
  const u = 1 - (yield* Random.next);
  const v = yield* Random.next;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
});

/** One sample of a side whose typical value is `typical`. */
const sample = (typical: number, noise: Noise) =>
  Effect.gen(function* () {
    const outlier = (yield* Random.next) < noise.outliers;
    return typical * Math.exp(noise.spread * (yield* normal)) * (outlier ? noise.outlierFactor : 1);
  });

/** One proof: samples in turns until the rules decide; its outcome and how many samples each side took. */
export const simulateProof = (rules: StopRules, ratio: number, noise: Noise) =>
  Effect.gen(function* () {
    const base: number[] = [];
    const head: number[] = [];
    for (;;) {
      base.push(yield* sample(100, noise));
      head.push(yield* sample(100 * ratio, noise));
      const step = decide(rules, base, head);
      if (step.kind === "decided") return { outcome: step.outcome, samples: base.length };
    }
  });

export interface Tally {
  readonly outcomes: Readonly<Partial<Record<PerfOutcome, number>>>;
  /** The median number of samples per side the proofs took. */
  readonly medianSamples: number;
}

/** `runs` proofs with the same true ratio and noise, from a fixed seed. */
export function simulate(rules: StopRules, ratio: number, noise: Noise, runs: number, seed: number): Tally {
  const all = Effect.runSync(
    Effect.forEach(Array.from({ length: runs }), () => simulateProof(rules, ratio, noise)).pipe(Random.withSeed(seed)),
  );
  const outcomes: Partial<Record<PerfOutcome, number>> = {};
  for (const { outcome } of all) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  const counts = all.map((proof) => proof.samples).sort((a, b) => a - b);
  return { outcomes, medianSamples: counts[Math.floor((counts.length - 1) / 2)] ?? 0 };
}
