// How a performance proof's numbers and outcome read in progress lines, the verdict's reason and report.md.
import type { MeasureMetric } from "../../common/contract.ts";
import { metricUnit, metricWords, type PerfRequest } from "./request.ts";
import type { PerfOutcome, RatioInterval } from "./stats.ts";

/** A value of the metric with its unit: "123.4 ms", "3", "1,204,332 bytes". */
export function formatValue(metric: MeasureMetric, value: number): string {
  const unit = metricUnit(metric);
  const number = unit === "ms" ? value.toFixed(1) : Math.round(value).toLocaleString("en-US");
  return unit === "" ? number : `${number} ${unit}`;
}

/** A ratio to two decimals: "0.52". */
export const formatRatio = (ratio: number): string => ratio.toFixed(2);

/** An interval of a ratio: "0.47–0.58"; a ratio is never below 0, so a low end below it (a noisy base) shows as 0. */
export const formatRange = (low: number, high: number): string => `${formatRatio(Math.max(0, low))}–${formatRatio(high)}`;

/** A factor's number: one decimal below 10, none above: "3.2", "12". */
const figure = (value: number): string => (value >= 10 ? value.toFixed(0) : value.toFixed(1));

/** A factor: "3.2×", "12×". */
const factor = (value: number): string => `${figure(value)}×`;

/** "3.2× faster (95 % interval 2.9–3.6×)": head's speed-up over base, as the interval of base ÷ head. */
function speedUp(interval: RatioInterval): string {
  const low = 1 / interval.high;
  const range = interval.low <= 0 ? `at least ${factor(low)}` : `${figure(low)}–${factor(1 / interval.low)}`;
  return `${factor(1 / interval.ratio)} faster (95 % interval ${range})`;
}

/** "1.4× slower (95 % interval 1.3–1.5×)". */
const slowDown = (interval: RatioInterval): string =>
  `${factor(interval.ratio)} slower (95 % interval ${figure(interval.low)}–${factor(interval.high)})`;

/** "head ÷ base 0.97 (95 % interval 0.90–1.05)". */
const quotient = (interval: RatioInterval): string =>
  `head ÷ base ${formatRatio(interval.ratio)} (95 % interval ${formatRange(interval.low, interval.high)})`;

const each = (count: number) => `${count} sample${count === 1 ? "" : "s"} each`;

/**
 * The outcome in a sentence: "head is 3.2× faster (95 % interval 2.9–3.6×) in task time, 8 samples each."
 * `shown` is the 95 % interval, `count` the samples per side.
 */
export function outcomeSentence(
  request: PerfRequest,
  outcome: PerfOutcome,
  shown: RatioInterval | undefined,
  count: number,
  capped: boolean,
): string {
  const what = `${request.label === undefined ? "" : `${request.label}'s `}${metricWords[request.metric]}`;
  const margin = `${request.marginPercent} %`;
  if (shown === undefined) {
    return `No ratio: base's ${what} is 0 in every sample, so head cannot be compared with it (${each(count)}); measure a block where base does some work.`;
  }
  const cap = capped
    ? ` at the cap of ${count} samples a side (--max-samples); a smaller difference needs more samples, or --cpu-slowdown to magnify it`
    : "";
  switch (outcome) {
    case "faster":
      return `head is ${speedUp(shown)} in ${what}, ${each(count)}: faster by more than the ${margin} margin.`;
    case "slower":
      return `head is ${slowDown(shown)} in ${what}, ${each(count)}: slower by more than the ${margin} margin.`;
    case "not-slower":
      return `head is not slower than base by more than ${margin} in ${what}: ${quotient(shown)}, ${each(count)}.`;
    case "no-clear-difference":
      return `No clear difference: ${quotient(shown)} in ${what}, ${each(count)}; head is not faster by the ${margin} margin${cap}.`;
    case "undecided":
      return `Undecided: ${quotient(shown)} in ${what}, ${each(count)}, may still be above ${formatRatio(1 + request.margin)} (head slower by more than ${margin})${cap}.`;
  }
}
