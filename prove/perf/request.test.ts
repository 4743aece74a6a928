import { describe, expect, it } from "vitest";
import { measureMetrics, type MeasureMetadata } from "../../common/contract.ts";
import { perfRequest, valueOf } from "./request.ts";

const block = (label: string, task: number): MeasureMetadata => ({
  label,
  metrics: { ...(Object.fromEntries(measureMetrics.map((metric) => [metric, 1])) as MeasureMetadata["metrics"]), task },
});
const none = { notSlower: undefined, margin: undefined, maxSamples: undefined, cpuSlowdown: undefined };

describe("a sample's value of the metric asked for", () => {
  const blocks = [block("reply", 30), block("scroll", 5), block("reply", 12)];
  it.each([
    ["task", 47],
    ["reply:task", 42],
    ["scroll:task", 5],
    ["wall", 3],
  ])("--faster %s is %d", (typed, value) => {
    const request = perfRequest({ ...none, faster: typed });
    if (request === undefined) throw new Error("no request");
    expect(valueOf(request, blocks)).toBe(value);
  });

  it("is none when the run measured no block, or none of the label", () => {
    const labelled = perfRequest({ ...none, faster: "a:b:task" });
    expect(labelled).toMatchObject({ metric: "task", label: "a:b", margin: 0.1, maxSamples: 30 });
    if (labelled === undefined) throw new Error("no request");
    expect(valueOf(labelled, blocks)).toBeUndefined();
    expect(valueOf(labelled, undefined)).toBeUndefined();
  });
});
