import { describe, expect, it } from "vitest";
import { cpuSlowdown } from "./measure.ts";

describe("the CPU slowdown a measured block runs at", () => {
  it.each([
    { env: {}, option: undefined, factor: undefined },
    { env: {}, option: 4, factor: 4 },
    { env: { SCENARIO_CPU_SLOWDOWN: "" }, option: 2.5, factor: 2.5 },
    { env: { SCENARIO_CPU_SLOWDOWN: "6" }, option: undefined, factor: 6 },
    { env: { SCENARIO_CPU_SLOWDOWN: "6" }, option: 4, factor: 6 },
  ])("with SCENARIO_CPU_SLOWDOWN $env.SCENARIO_CPU_SLOWDOWN and the option $option: $factor", ({ env, option, factor }) => {
    expect(cpuSlowdown(option, env)).toBe(factor);
  });

  it.each(["1", "0.5", "fast", "Infinity"])("refuses SCENARIO_CPU_SLOWDOWN=%s, saying what to set", (value) => {
    expect(() => cpuSlowdown(4, { SCENARIO_CPU_SLOWDOWN: value })).toThrow(
      `[scenario-harness:config] SCENARIO_CPU_SLOWDOWN is "${value}": set it to a CPU slowdown factor above 1 (4 runs the page 4× slower), or unset it.`,
    );
  });

  it.each([1, 0, Number.NaN])("refuses the option cpuSlowdown: %s, saying what to set", (option) => {
    expect(() => cpuSlowdown(option, {})).toThrow(
      `[scenario-harness:config] the cpuSlowdown option is ${String(option)}: set it to a factor above 1 (test.use({ cpuSlowdown: 4 })), or leave it out.`,
    );
  });
});
