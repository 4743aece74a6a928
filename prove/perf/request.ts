// What a performance proof asks, from its options, and a sample's value of the metric it compares.
import type { MeasureMetadata, MeasureMetric } from "../../common/contract.ts";
import type { ProveOptions } from "../options/index.ts";
import type { PerfMode, StopRules } from "./stats.ts";

export const defaultMargin = 10;
export const defaultMaxSamples = 30;

export interface PerfRequest extends StopRules {
  readonly mode: PerfMode;
  /** The metric as typed: `task`, `reply:script`. */
  readonly typed: string;
  readonly metric: MeasureMetric;
  /** The one block's label when typed as `<label>:<metric>`; undefined to sum every block. */
  readonly label: string | undefined;
  /** The margin in percent, as typed or the default. */
  readonly marginPercent: number;
  readonly cpuSlowdown: number | undefined;
}

/** The performance proof the options ask for; undefined for a proof of a fix. The flags were checked when parsed. */
export function perfRequest(
  options: Pick<ProveOptions, "faster" | "notSlower" | "margin" | "maxSamples" | "cpuSlowdown">,
): PerfRequest | undefined {
  const typed = options.faster ?? options.notSlower;
  if (typed === undefined) return undefined;
  const colon = typed.lastIndexOf(":");
  const marginPercent = options.margin ?? defaultMargin;
  return {
    mode: options.faster === undefined ? "not-slower" : "faster",
    typed,
    metric: (colon === -1 ? typed : typed.slice(colon + 1)) as MeasureMetric,
    label: colon === -1 ? undefined : typed.slice(0, colon),
    marginPercent,
    margin: marginPercent / 100,
    maxSamples: options.maxSamples ?? defaultMaxSamples,
    cpuSlowdown: options.cpuSlowdown,
  };
}

/** A run's value of the metric: summed over its blocks, or its labelled block's (summed when it measured that label more than once); undefined when it measured none. */
export function valueOf(
  request: Pick<PerfRequest, "metric" | "label">,
  measures: ReadonlyArray<MeasureMetadata> | undefined,
): number | undefined {
  const blocks = (measures ?? []).filter((block) => request.label === undefined || block.label === request.label);
  if (blocks.length === 0) return undefined;
  return blocks.reduce((sum, block) => sum + block.metrics[request.metric], 0);
}

/** "task time", "total blocking time": a metric as a sentence names it. */
export const metricWords: Readonly<Record<MeasureMetric, string>> = {
  task: "task time",
  script: "script time",
  layout: "layout time",
  style: "style recalculation time",
  cpu: "CPU time",
  blocking: "total blocking time",
  "long-tasks": "long tasks",
  "dropped-frames": "dropped frames",
  interaction: "interaction latency",
  heap: "JS heap",
  wall: "wall time",
};

/** The metric's unit, for values in progress lines and the report. */
export const metricUnit = (metric: MeasureMetric): string =>
  metric === "heap" ? "bytes" : metric === "long-tasks" || metric === "dropped-frames" ? "" : "ms";
