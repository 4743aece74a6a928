import { describe, expect, it } from "vitest";
import { expectTimeoutOf, repeatCount, shardOf, thresholdOf } from "./values.ts";

describe("an option's value as typed", () => {
  it.each([
    ["--expect-timeout 1", () => expectTimeoutOf("1"), 1],
    ["no --expect-timeout", () => expectTimeoutOf(undefined), undefined],
    ["--repeat 12", () => repeatCount("12"), 12],
    ["no --repeat", () => repeatCount(undefined), 1],
    ["--shard 3/3", () => shardOf("3/3"), { index: 3, total: 3 }],
    ["--threshold 1", () => thresholdOf("1"), 1],
    ["--threshold 1.", () => thresholdOf("1."), 1],
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
  ])("refuses %s, saying what it takes", (_typed, read, says) => {
    expect(read).toThrow(says);
  });
});
