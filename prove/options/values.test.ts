import { describe, expect, it } from "vitest";
import { cpuSlowdownOf, expectTimeoutOf, marginOf, maxSamplesOf, metricOf, repeatCount, shardOf, thresholdOf } from "./values.ts";

describe("an option's value as typed", () => {
  it.each([
    ["--expect-timeout 1", () => expectTimeoutOf("1"), 1],
    ["no --expect-timeout", () => expectTimeoutOf(undefined), undefined],
    ["--repeat 12", () => repeatCount("12"), 12],
    ["no --repeat", () => repeatCount(undefined), 1],
    ["--shard 3/3", () => shardOf("3/3"), { index: 3, total: 3 }],
    ["--threshold 1", () => thresholdOf("1"), 1],
    ["--threshold 1.", () => thresholdOf("1."), 1],
    ["--faster task", () => metricOf("task", "--faster"), "task"],
    ["--faster reply:script", () => metricOf("reply:script", "--faster"), "reply:script"],
    ["--faster a:b:wall", () => metricOf("a:b:wall", "--faster"), "a:b:wall"],
    ["--margin 5%", () => marginOf("5%"), 5],
    ["--margin 2.5", () => marginOf("2.5"), 2.5],
    ["--max-samples 4", () => maxSamplesOf("4"), 4],
    ["--cpu-slowdown 1.5", () => cpuSlowdownOf("1.5"), 1.5],
  ])("reads %s", (_typed, read, value) => {
    expect(read()).toEqual(value);
  });

  it.each([
    [
      "--expect-timeout 0",
      () => expectTimeoutOf("0"),
      '--expect-timeout takes milliseconds, a whole number of 1 or more, e.g. --expect-timeout 3000; got "0".',
    ],
    ["--expect-timeout 1.5", () => expectTimeoutOf("1.5"), 'got "1.5"'],
    ["--repeat 1.5", () => repeatCount("1.5"), '--repeat takes a whole number of runs, 1 or more; got "1.5".'],
    ["--shard 0/3", () => shardOf("0/3"), 'got "0/3"'],
    ["--shard 1/0", () => shardOf("1/0"), 'got "1/0"'],
    ["--threshold 1.001", () => thresholdOf("1.001"), 'got "1.001"'],
    [
      "--faster speed",
      () => metricOf("speed", "--faster"),
      "--faster takes a metric of the scenario's app.measure blocks, one of task, script, layout, style, cpu, blocking, long-tasks, dropped-frames, interaction, heap, wall,",
    ],
    ["--not-slower :task", () => metricOf(":task", "--not-slower"), 'e.g. --not-slower task or --not-slower "reply:script"; got ":task".'],
    [
      "--margin 0",
      () => marginOf("0"),
      '--margin takes a percentage above 0 and below 100, e.g. --margin 10 for 10 % (the default); got "0".',
    ],
    ["--margin 100", () => marginOf("100"), 'got "100"'],
    ["--margin 0.1x", () => marginOf("0.1x"), 'got "0.1x"'],
    [
      "--max-samples 3",
      () => maxSamplesOf("3"),
      "--max-samples takes samples per side, a whole number of 4 or more (no decision is made on fewer)",
    ],
    [
      "--cpu-slowdown 1",
      () => cpuSlowdownOf("1"),
      '--cpu-slowdown takes a factor above 1, e.g. --cpu-slowdown 4 for a renderer four times slower; got "1".',
    ],
  ])("refuses %s, saying what it takes", (_typed, read, says) => {
    expect(read).toThrow(says);
  });
});
