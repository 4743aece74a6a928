import { describe, expect, it } from "vitest";
import type { ProveOptions } from "../cli/args.ts";
import { defaultOutDir, reproduceCommand, scenarioSlug } from "./paths.ts";

const options: ProveOptions = {
  base: "main", head: "fix/stop button", scenario: "scenarios/agent-chat/Stop-Button.e2e.ts", repo: undefined,
  config: "playwright.config.ts", grep: undefined, keep: false, repeat: 1, out: undefined, json: false, sequential: false,
};

describe("report folders and the reproduce command", () => {
  it.each([
    ["scenarios/agent-chat/stop-button.e2e.ts", undefined, "stop-button"],
    ["Stop Button.spec.ts", undefined, "stop-button"],
    ["x/two-tests.e2e.ts", "adds -1 and 1", "two-tests--adds-1-and-1"],
  ])("name %s (--grep %s) %s", (file, grep, slug) => {
    expect(scenarioSlug(file, grep)).toBe(slug);
  });

  it("put the report under reports/<scenario>/<base7>-<head7>, or the refs when they did not resolve", () => {
    expect(defaultOutDir("/repo", options, "a".repeat(40), "b".repeat(40))).toBe("/repo/reports/stop-button/aaaaaaa-bbbbbbb");
    expect(defaultOutDir("/repo", options, undefined, undefined)).toBe("/repo/reports/stop-button/main-fix_stop_button");
  });

  it("pin the reproduce command to the commits and keep only the options that were given", () => {
    expect(reproduceCommand(options, "/repo", { base: "a".repeat(40), head: "b".repeat(40), repo: "/repo" })).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb scenarios/agent-chat/Stop-Button.e2e.ts",
    );
    expect(
      reproduceCommand({ ...options, repo: "../app", config: "e2e/pw.config.ts", grep: "it's stopped", repeat: 3 }, "/repo", {
        base: undefined, head: undefined, repo: "/app",
      }),
    ).toBe(
      "pnpm prove-scenario --base main --head 'fix/stop button' scenarios/agent-chat/Stop-Button.e2e.ts --repo /app --config e2e/pw.config.ts --grep 'it'\\''s stopped' --repeat 3",
    );
  });

  it("write a scenario and config given as absolute paths inside the checkout relative to it, so the command runs as printed", () => {
    const absolute = { ...options, scenario: "/repo/scenarios/agent-chat/stop.e2e.ts", config: "/repo/playwright.config.ts", repo: "/tmp/sandbox" };
    const resolved = { base: "a".repeat(40), head: "b".repeat(40), repo: "/tmp/sandbox" };
    expect(reproduceCommand(absolute, "/repo", resolved)).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb scenarios/agent-chat/stop.e2e.ts --repo /tmp/sandbox",
    );
    expect(reproduceCommand({ ...absolute, scenario: "/elsewhere/x.e2e.ts", config: "/elsewhere/pw.config.ts" }, "/repo", resolved)).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb /elsewhere/x.e2e.ts --repo /tmp/sandbox --config /elsewhere/pw.config.ts",
    );
  });
});
