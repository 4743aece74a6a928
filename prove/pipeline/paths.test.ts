import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ProveOptions } from "../cli/args.ts";
import { defaultOutDir, proverCommand, reproduceCommand, scenarioFolder } from "./paths.ts";

const options: ProveOptions = {
  base: "main", head: "fix/stop button", scenario: "scenarios/agent-chat/Stop-Button.e2e.ts",
  scenarios: ["scenarios/agent-chat/Stop-Button.e2e.ts"], shard: undefined, repo: undefined, config: undefined,
  grep: undefined, keep: false, repeat: 1, out: undefined, json: false, sequential: false, publish: undefined, expectTimeout: undefined,
};
const place = { cwd: "/repo", root: "/repo", prover: "pnpm prove-scenario" };

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("report folders and the reproduce command", () => {
  it.each([
    ["scenarios/agent-chat/stop-button.e2e.ts", undefined, "scenarios/agent-chat/stop-button"],
    ["Stop Button.spec.ts", undefined, "stop-button"],
    ["x/two-tests.e2e.ts", "adds -1 and 1", "x/two-tests--adds-1-and-1"],
  ])("name %s (--grep %s) %s", (file, grep, folder) => {
    expect(scenarioFolder(file, grep)).toBe(folder);
  });

  it("put the report under reports/<scenario path>/<base7>-<head7>, or the refs when they did not resolve", () => {
    const scenario = "scenarios/agent-chat/stop-button.e2e.ts";
    expect(defaultOutDir("/repo", scenario, options, "a".repeat(40), "b".repeat(40))).toBe("/repo/reports/scenarios/agent-chat/stop-button/aaaaaaa-bbbbbbb");
    expect(defaultOutDir("/repo", scenario, options, undefined, undefined)).toBe("/repo/reports/scenarios/agent-chat/stop-button/main-fix_stop_button");
  });

  it("give two scenarios of one file name in different folders different report folders", () => {
    const [cart, checkout] = ["e2e/cart/total.e2e.ts", "e2e/checkout/total.e2e.ts"].map((file) => defaultOutDir("/repo", file, options, "a".repeat(40), "b".repeat(40)));
    expect(cart).not.toBe(checkout);
  });

  it("pin the reproduce command to the commits and keep only the options that were given", () => {
    expect(reproduceCommand(options, place, { base: "a".repeat(40), head: "b".repeat(40), repo: "/repo" })).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb scenarios/agent-chat/Stop-Button.e2e.ts",
    );
    expect(
      reproduceCommand({ ...options, repo: "../app", config: "e2e/pw.config.ts", grep: "it's stopped", repeat: 3 }, place, {
        base: undefined, head: undefined, repo: "/app",
      }),
    ).toBe(
      "pnpm prove-scenario --base main --head 'fix/stop button' scenarios/agent-chat/Stop-Button.e2e.ts --repo ../app --config e2e/pw.config.ts --grep 'it'\\''s stopped' --repeat 3",
    );
  });

  it("write every path relative to the checkout's root, as typed from a subfolder or absolute, so the command runs there as printed", () => {
    const absolute = { ...options, scenarios: ["/repo/scenarios/agent-chat/stop.e2e.ts", "/repo/scenarios/more"], config: "/repo/playwright.config.ts", repo: "/tmp/sandbox" };
    const resolved = { base: "a".repeat(40), head: "b".repeat(40), repo: "/tmp/sandbox" };
    expect(reproduceCommand(absolute, place, resolved)).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb scenarios/agent-chat/stop.e2e.ts scenarios/more --repo ../tmp/sandbox --config playwright.config.ts",
    );
    const fromSubfolder = { ...options, scenarios: ["x.e2e.ts"], config: "../scenarios.config.ts" };
    expect(reproduceCommand(fromSubfolder, { ...place, cwd: "/repo/scenarios" }, resolved)).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb scenarios/x.e2e.ts --config scenarios.config.ts",
    );
  });

  it("run the prover the way the checkout's package manager runs an installed bin", async () => {
    const [pnpm, yarn, npm] = await Promise.all([0, 1, 2].map(() => mkdtemp(join(tmpdir(), "prove-runner-"))));
    scratch.push(pnpm ?? "", yarn ?? "", npm ?? "");
    await writeFile(join(pnpm ?? "", "pnpm-lock.yaml"), "");
    await writeFile(join(yarn ?? "", "yarn.lock"), "");
    expect([pnpm, yarn, npm].map((dir) => proverCommand(dir ?? ""))).toEqual(["pnpm prove-scenario", "yarn prove-scenario", "npx prove-scenario"]);
  });
});
