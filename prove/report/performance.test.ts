import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { measureMetrics, type MeasureMetadata } from "../../common/contract.ts";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import { perfRequest } from "../perf/request.ts";
import type { Sampled, SamplingEnd } from "../perf/samples.ts";
import { performanceMarkdown, writePerformance } from "./performance.ts";
import { noRedactions } from "./redact.ts";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "prove-performance-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A passed run whose one block, "reply", took `task` ms, noted at `cpuSlowdown` when throttled. */
const run = (task: number, cpuSlowdown?: number): ClassifiedAttempt => {
  const block: MeasureMetadata = {
    label: "reply",
    metrics: Object.fromEntries(measureMetrics.map((metric) => [metric, metric === "task" ? task : 1])) as MeasureMetadata["metrics"],
    ...(cpuSlowdown === undefined ? {} : { cpuSlowdown }),
  };
  return { attempt: { outcome: "passed", durationMs: 1000, runMs: 4000 }, artifacts: { screenshots: [], measures: [block] } };
};

/** Two samples a side after a warm-up each, every run noted at `cpuSlowdown`. */
const sampledAt = (cpuSlowdown: number | undefined): Sampled => {
  const side = (ref: string, values: ReadonlyArray<number>) => ({
    ref,
    commit: { sha: ref.repeat(40).slice(0, 40), subject: ref },
    warmup: run(values[0] ?? 0, cpuSlowdown),
    samples: values.map((value) => ({ value, attempt: run(value, cpuSlowdown) })),
  });
  return {
    base: side("b", [100, 104]),
    head: side("c", [50, 52]),
    end: { kind: "decided", outcome: "faster", decidedOn: undefined },
    order: ["base", "head", "head", "base"],
  };
};

const options = { faster: "task", notSlower: undefined, margin: undefined, maxSamples: undefined };

async function performanceOf(sampled: Sampled, cpuSlowdown: number | undefined) {
  const request = perfRequest({ ...options, cpuSlowdown });
  if (request === undefined) throw new Error("no performance request");
  const performance = await writePerformance({ request, sampled }, dir, [], noRedactions());
  return { slowdown: performance.cpuSlowdown, markdown: performanceMarkdown(performance, request.metric).split("\n")[2] };
}

describe("a performance report's CPU slowdown", () => {
  it("is the factor the compared blocks ran at: --cpu-slowdown, or the scenario's own cpuSlowdown option without it", async () => {
    expect(await performanceOf(sampledAt(2), 2)).toEqual({
      slowdown: 2,
      markdown:
        "--faster task: head must be faster by more than 10 %; samples in turns (base, head, head, base, …) after a warm-up run of each side, at most 30 a side, the renderer 2× slower while measured.",
    });
    expect((await performanceOf(sampledAt(3), undefined)).slowdown).toBe(3);
  });

  it("is null, and report.md names none, when the blocks ran at full speed", async () => {
    const { slowdown, markdown } = await performanceOf(sampledAt(undefined), undefined);
    expect(slowdown).toBeNull();
    expect(markdown).toMatch(/at most 30 a side\.$/);
  });

  it("is the factor --cpu-slowdown asked for when the proof ended before any run measured a block", async () => {
    const warmup: ClassifiedAttempt = { attempt: { outcome: "passed", durationMs: 1000, runMs: 4000 }, artifacts: { screenshots: [] } };
    const end: SamplingEnd = { kind: "stopped", side: "base", attempt: warmup, why: "no-measure" };
    const unmeasured: Sampled = {
      base: { ref: "b", commit: { sha: "b".repeat(40), subject: "b" }, warmup, samples: [] },
      head: { ref: "c", commit: { sha: "c".repeat(40), subject: "c" }, warmup: undefined, samples: [] },
      end,
      order: [],
    };
    expect((await performanceOf(unmeasured, 4)).slowdown).toBe(4);
  });
});
