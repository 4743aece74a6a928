// How an option's value as typed becomes the value a command takes; each throws UsageError saying what to type instead.
import { measureMetrics } from "../../common/contract.ts";
import { UsageError } from "../errors.ts";
import { minSamples } from "../perf/stats.ts";
import { defaultThreshold } from "../report/diff-defaults.ts";
import type { Shard } from "./types.ts";

/** A required option's value: missing or empty is refused with an example. */
export function required(value: string | undefined, flag: string, example: string): string {
  if (value === undefined || value === "") throw new UsageError({ detail: `${flag} is required, e.g. ${flag} ${example}.` });
  return value;
}

/** An optional value that must not be empty: an empty --repo or --grep would quietly mean the current folder, or every test. */
export function nonEmpty(value: string | undefined, flag: string, example: string): string | undefined {
  if (value === "") throw new UsageError({ detail: `${flag} needs a value, e.g. ${flag} ${example}.` });
  return value;
}

/** `--shard i/n`: the i-th (from 1) of n slices. */
export function shardOf(value: string | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (match === null || total < 1 || index < 1 || index > total) {
    throw new UsageError({
      detail: `--shard takes <i>/<n>, the i-th of n slices with 1 ≤ i ≤ n, e.g. --shard 1/3; got ${JSON.stringify(value)}.`,
    });
  }
  return { index, total };
}

/** `--expect-timeout`: whole milliseconds, 1 or more. */
export function expectTimeoutOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms < 1)
    throw new UsageError({
      detail: `--expect-timeout takes milliseconds, a whole number of 1 or more, e.g. --expect-timeout 3000; got ${JSON.stringify(value)}.`,
    });
  return ms;
}

/** `--threshold`: a share of pixels from 0 to 1, as a plain number (0.5 % is 0.005). */
export function thresholdOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const share = Number(value);
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) || share > 1) {
    throw new UsageError({
      detail:
        `--threshold takes the share of changed pixels, from 0 to 1, at or below which a label counts as unchanged, ` +
        `e.g. --threshold 0.005 for half a percent (default ${defaultThreshold}); got ${JSON.stringify(value)}.`,
    });
  }
  return share;
}

/** `--repeat`: a whole number of runs, 1 when not given. */
export function repeatCount(value: string | undefined): number {
  if (value === undefined) return 1;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new UsageError({ detail: `--repeat takes a whole number of runs, 1 or more; got ${JSON.stringify(value)}.` });
  return count;
}

/** `--faster` and `--not-slower`: a metric of app.measure's blocks, alone (summed over every block) or as `<label>:<metric>` (that block's). */
export function metricOf(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const colon = value.lastIndexOf(":");
  const metric = colon === -1 ? value : value.slice(colon + 1);
  const label = colon === -1 ? undefined : value.slice(0, colon);
  if (!(measureMetrics as ReadonlyArray<string>).includes(metric) || label === "") {
    throw new UsageError({
      detail:
        `${flag} takes a metric of the scenario's app.measure blocks, one of ${measureMetrics.join(", ")}, ` +
        `summed over its blocks, or <label>:<metric> for one block, e.g. ${flag} task or ${flag} "reply:script"; got ${JSON.stringify(value)}.`,
    });
  }
  return value;
}

/** `--margin`: a percentage above 0 and below 100, with or without its `%`. */
export function marginOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const percent = Number(value.replace(/%$/, ""));
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)%?$/.test(value) || !(percent > 0 && percent < 100)) {
    throw new UsageError({
      detail: `--margin takes a percentage above 0 and below 100, e.g. --margin 10 for 10 % (the default); got ${JSON.stringify(value)}.`,
    });
  }
  return percent;
}

/** `--max-samples`: samples per side, a whole number no lower than the fewest a decision needs. */
export function maxSamplesOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < minSamples) {
    throw new UsageError({
      detail: `--max-samples takes samples per side, a whole number of ${minSamples} or more (no decision is made on fewer), e.g. --max-samples 30; got ${JSON.stringify(value)}.`,
    });
  }
  return count;
}

/** `--cpu-slowdown`: how many times slower the renderer runs while a block is measured, above 1. */
export function cpuSlowdownOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const factor = Number(value);
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) || !(factor > 1)) {
    throw new UsageError({
      detail: `--cpu-slowdown takes a factor above 1, e.g. --cpu-slowdown 4 for a renderer four times slower; got ${JSON.stringify(value)}.`,
    });
  }
  return factor;
}
