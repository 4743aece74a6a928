import { describe, expect, it } from "vitest";
import { loaded, quiet, simulate } from "./simulate.ts";
import { decide, median, ratioInterval, type PerfOutcome, type StopRules } from "./stats.ts";

const faster: StopRules = { mode: "faster", margin: 0.1, maxSamples: 30 };
const guard: StopRules = { mode: "not-slower", margin: 0.1, maxSamples: 30 };

describe("ratioInterval", () => {
  it("is Welch's interval of the difference of the means over base's mean, plus 1", () => {
    // By hand: each side's variance 8/3, the difference's standard error √(2 · 8/3 / 4) = 1.1547 on 6 degrees of
    // freedom, t(0.975, 6) = 2.4469 (a t table): the difference −50 ± 2.8254, over base's mean 100.
    const interval = ratioInterval([98, 100, 102, 100], [48, 50, 52, 50]);
    expect(interval?.ratio).toBe(0.5);
    expect(interval?.low).toBeCloseTo(0.47175, 4);
    expect(interval?.high).toBeCloseTo(0.52825, 4);
    expect(interval?.df).toBeCloseTo(6, 6);
  });

  it("is a point when every sample of each side is the same", () => {
    expect(ratioInterval([10, 10], [5, 5])).toEqual({ confidence: 0.95, ratio: 0.5, low: 0.5, high: 0.5, df: Number.POSITIVE_INFINITY });
  });

  it("is undefined with fewer than two samples a side or a base whose mean is 0", () => {
    expect(ratioInterval([10], [5, 6])).toBeUndefined();
    expect(ratioInterval([0, 0, 0], [0, 1, 0])).toBeUndefined();
  });
});

describe("median", () => {
  it("is one of the samples, the lower middle of an even count", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2);
  });
});

/** `count` samples around `value`, each `step` apart, alternating above and below: a known mean and spread. */
const around = (value: number, step: number, count: number) =>
  Array.from({ length: count }, (_, index) => value + (index % 2 === 0 ? 1 : -1) * step * (1 + (index % 3)));

describe("decide", () => {
  const rows: ReadonlyArray<{
    readonly name: string;
    readonly rules: StopRules;
    readonly base: ReadonlyArray<number>;
    readonly head: ReadonlyArray<number>;
    readonly expected: PerfOutcome | "continue";
  }> = [
    { name: "head at half of base, tight", rules: faster, base: around(100, 1, 4), head: around(50, 1, 4), expected: "faster" },
    { name: "too few samples to say anything", rules: faster, base: around(100, 1, 3), head: around(50, 1, 3), expected: "continue" },
    {
      name: "the same values on both sides",
      rules: faster,
      base: around(100, 1, 6),
      head: around(100, 1, 6),
      expected: "no-clear-difference",
    },
    {
      name: "head 5 % faster, tight: not by the 10 % margin",
      rules: faster,
      base: around(100, 0.5, 8),
      head: around(95, 0.5, 8),
      expected: "no-clear-difference",
    },
    {
      name: "head 12 % faster, noisy: the interval straddles 0.9",
      rules: faster,
      base: around(100, 8, 6),
      head: around(88, 8, 6),
      expected: "continue",
    },
    {
      name: "the same, at the cap",
      rules: { ...faster, maxSamples: 6 },
      base: around(100, 8, 6),
      head: around(88, 8, 6),
      expected: "no-clear-difference",
    },
    { name: "head twice base", rules: faster, base: around(100, 1, 4), head: around(200, 1, 4), expected: "slower" },
    { name: "guard: the same values", rules: guard, base: around(100, 1, 4), head: around(100, 1, 4), expected: "not-slower" },
    { name: "guard: head 5 % slower, tight", rules: guard, base: around(100, 0.5, 8), head: around(105, 0.5, 8), expected: "not-slower" },
    { name: "guard: head 30 % slower", rules: guard, base: around(100, 1, 4), head: around(130, 1, 4), expected: "slower" },
    { name: "guard: noisy, straddling 1.1", rules: guard, base: around(100, 8, 6), head: around(110, 8, 6), expected: "continue" },
    {
      name: "guard: the same, at the cap",
      rules: { ...guard, maxSamples: 6 },
      base: around(100, 8, 6),
      head: around(110, 8, 6),
      expected: "undecided",
    },
    {
      name: "base 0 throughout: no ratio, at the cap",
      rules: { ...faster, maxSamples: 4 },
      base: [0, 0, 0, 0],
      head: [0, 0, 0, 0],
      expected: "no-clear-difference",
    },
  ];
  it.each(rows)("$name: $expected", ({ rules, base, head, expected }) => {
    const step = decide(rules, base, head);
    expect(step.kind === "decided" ? step.outcome : step.kind).toBe(expected);
  });
});

describe("a seeded simulation of whole proofs", () => {
  const runs = 1000;
  it.each([
    { noise: "quiet", model: quiet },
    { noise: "loaded", model: loaded },
  ])("the same commit is never proved faster, nor a 5 % change at a 10 % margin, on a $noise machine", ({ model }) => {
    const same = simulate(faster, 1, model, runs, 1);
    const small = simulate(faster, 0.95, model, runs, 2);
    expect(same.outcomes.faster ?? 0).toBeLessThanOrEqual(runs / 500);
    expect(small.outcomes.faster ?? 0).toBeLessThanOrEqual(runs / 500);
    // And the same commit is not called slower either.
    expect(same.outcomes.slower ?? 0).toBeLessThanOrEqual(runs / 500);
  });

  it.each([
    { noise: "quiet", model: quiet, ratio: 0.8 },
    { noise: "loaded", model: loaded, ratio: 0.5 },
  ])("a change of head ÷ base = $ratio is proved faster on a $noise machine", ({ model, ratio }) => {
    expect(simulate(faster, ratio, model, runs, 3).outcomes.faster ?? 0).toBeGreaterThanOrEqual(runs * 0.95);
  });

  it("the guard passes the same commit on a quiet machine and fails a 30 % slowdown", () => {
    expect(simulate(guard, 1, quiet, runs, 4).outcomes["not-slower"]).toBe(runs);
    expect(simulate(guard, 1.3, quiet, runs, 5).outcomes.slower).toBe(runs);
  });
});
