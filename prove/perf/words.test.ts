import { describe, expect, it } from "vitest";
import { perfRequest } from "./request.ts";
import type { RatioInterval } from "./stats.ts";
import { formatValue, outcomeSentence } from "./words.ts";

const faster = perfRequest({ faster: "task", notSlower: undefined, margin: undefined, maxSamples: undefined, cpuSlowdown: undefined });
const guard = perfRequest({ faster: undefined, notSlower: "reply:script", margin: 5, maxSamples: 12, cpuSlowdown: undefined });
const interval = (ratio: number, low: number, high: number): RatioInterval => ({ confidence: 0.95, ratio, low, high, df: 10 });

describe("a performance proof's outcome in words", () => {
  it.each([
    [
      faster,
      "faster",
      interval(0.3125, 0.28, 0.345),
      8,
      false,
      "head is 3.2× faster (95 % interval 2.9–3.6×) in task time, 8 samples each: faster by more than the 10 % margin.",
    ],
    [
      faster,
      "faster",
      interval(0.06, -0.44, 0.56),
      5,
      false,
      "head is 17× faster (95 % interval at least 1.8×) in task time, 5 samples each: faster by more than the 10 % margin.",
    ],
    [
      faster,
      "slower",
      interval(1.4, 1.3, 1.5),
      4,
      false,
      "head is 1.4× slower (95 % interval 1.3–1.5×) in task time, 4 samples each: slower by more than the 10 % margin.",
    ],
    [
      faster,
      "no-clear-difference",
      interval(0.97, 0.9, 1.05),
      30,
      true,
      "No clear difference: head ÷ base 0.97 (95 % interval 0.90–1.05) in task time, 30 samples each; head is not faster by the 10 % margin at the cap of 30 samples a side (--max-samples); a smaller difference needs more samples, or --cpu-slowdown to magnify it.",
    ],
    [
      guard,
      "not-slower",
      interval(0.98, 0.95, 1.01),
      6,
      false,
      "head is not slower than base by more than 5 % in reply's script time: head ÷ base 0.98 (95 % interval 0.95–1.01), 6 samples each.",
    ],
    [
      guard,
      "undecided",
      interval(1.03, 0.98, 1.08),
      12,
      true,
      "Undecided: head ÷ base 1.03 (95 % interval 0.98–1.08) in reply's script time, 12 samples each, may still be above 1.05 (head slower by more than 5 %) at the cap of 12 samples a side (--max-samples); a smaller difference needs more samples, or --cpu-slowdown to magnify it.",
    ],
  ] as const)("%#: %s", (request, outcome, shown, count, capped, sentence) => {
    if (request === undefined) throw new Error("no request");
    expect(outcomeSentence(request, outcome, shown, count, capped)).toBe(sentence);
  });

  it("writes each metric's value with its unit", () => {
    expect([formatValue("task", 12.345), formatValue("long-tasks", 3), formatValue("heap", 1204332.4)]).toEqual([
      "12.3 ms",
      "3",
      "1,204,332 bytes",
    ]);
  });
});
