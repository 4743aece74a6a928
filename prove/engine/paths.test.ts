import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ProveOptions } from "../options/index.ts";
import { proverCommand, reproduceCommand } from "./paths.ts";
import { defaultOutDir, scenarioFolder } from "../report/folders.ts";

const options: ProveOptions = {
  base: "main",
  head: "fix/stop button",
  scenario: "scenarios/agent-chat/Stop-Button.e2e.ts",
  scenarios: ["scenarios/agent-chat/Stop-Button.e2e.ts"],
  shard: undefined,
  repo: undefined,
  config: undefined,
  grep: undefined,
  keep: false,
  repeat: 1,
  out: undefined,
  json: false,
  sequential: false,
  publish: undefined,
  expectTimeout: undefined,
  faster: undefined,
  notSlower: undefined,
  margin: undefined,
  maxSamples: undefined,
  cpuSlowdown: undefined,
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
    expect(defaultOutDir("/repo", scenario, options, "a".repeat(40), "b".repeat(40))).toBe(
      "/repo/reports/scenarios/agent-chat/stop-button/aaaaaaa-bbbbbbb",
    );
    expect(defaultOutDir("/repo", scenario, options, undefined, undefined)).toBe(
      "/repo/reports/scenarios/agent-chat/stop-button/main-fix_stop_button",
    );
  });

  it("give two scenarios of one file name in different folders different report folders", () => {
    const [cart, checkout] = ["e2e/cart/total.e2e.ts", "e2e/checkout/total.e2e.ts"].map((file) =>
      defaultOutDir("/repo", file, options, "a".repeat(40), "b".repeat(40)),
    );
    expect(cart).not.toBe(checkout);
  });

  it("pin the reproduce command to the commits and keep only the options that were given", () => {
    expect(reproduceCommand(options, place, { base: "a".repeat(40), head: "b".repeat(40), repo: "/repo" })).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb scenarios/agent-chat/Stop-Button.e2e.ts",
    );
    expect(
      reproduceCommand({ ...options, repo: "../app", config: "e2e/pw.config.ts", grep: "it's stopped", repeat: 3 }, place, {
        base: undefined,
        head: undefined,
        repo: "/app",
      }),
    ).toBe(
      "pnpm prove-scenario --base main --head 'fix/stop button' scenarios/agent-chat/Stop-Button.e2e.ts --repo ../app --config e2e/pw.config.ts --grep 'it'\\''s stopped' --repeat 3",
    );
  });

  it("write every path relative to the checkout's root, as typed from a subfolder or absolute, so the command runs there as printed", () => {
    const absolute = {
      ...options,
      scenarios: ["/repo/scenarios/agent-chat/stop.e2e.ts", "/repo/scenarios/more"],
      config: "/repo/playwright.config.ts",
      repo: "/tmp/sandbox",
    };
    const resolved = { base: "a".repeat(40), head: "b".repeat(40), repo: "/tmp/sandbox" };
    expect(reproduceCommand(absolute, place, resolved)).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb scenarios/agent-chat/stop.e2e.ts scenarios/more --repo ../tmp/sandbox --config playwright.config.ts",
    );
    const fromSubfolder = { ...options, scenarios: ["x.e2e.ts"], config: "../scenarios.config.ts" };
    expect(reproduceCommand(fromSubfolder, { ...place, cwd: "/repo/scenarios" }, resolved)).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb scenarios/x.e2e.ts --config scenarios.config.ts",
    );
  });

  it("name the config a run from the checkout's root would not find, as in a monorepo whose config is in the app's folder", async () => {
    const root = await mkdtemp(join(tmpdir(), "prove-monorepo-"));
    scratch.push(root);
    await mkdir(join(root, "docs"));
    await writeFile(join(root, "docs", "scenarios.config.ts"), "");
    const resolved = { base: "a".repeat(40), head: "b".repeat(40), repo: root };
    const inDocs = { cwd: join(root, "docs"), root, prover: "pnpm prove-scenario", configFile: join(root, "docs", "scenarios.config.ts") };
    const typed = { ...options, scenarios: ["scenarios/cart.e2e.ts"] };
    expect(reproduceCommand(typed, inDocs, resolved)).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb docs/scenarios/cart.e2e.ts --config docs/scenarios.config.ts",
    );
    // A config at the root that a run from there finds first is not named; one it would not pick is.
    await writeFile(join(root, "playwright.config.ts"), "");
    expect(reproduceCommand(typed, { ...inDocs, configFile: join(root, "playwright.config.ts") }, resolved)).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb docs/scenarios/cart.e2e.ts",
    );
    await writeFile(join(root, "scenarios.config.ts"), "");
    expect(reproduceCommand(typed, { ...inDocs, configFile: join(root, "playwright.config.ts") }, resolved)).toBe(
      "pnpm prove-scenario --base aaaaaaaaaaaa --head bbbbbbbbbbbb docs/scenarios/cart.e2e.ts --config playwright.config.ts",
    );
  });

  it("run the prover the way the checkout's package manager runs an installed bin, with npx where the version it pins does not run here", async () => {
    const dirs = await Promise.all([0, 1, 2, 3, 4].map(() => mkdtemp(join(tmpdir(), "prove-runner-"))));
    scratch.push(...dirs);
    // Each folder a checkout: pnpm, pnpm pinned to 9, yarn 1, yarn 1 where none is installed, npm.
    const [pnpm, pinned, yarn, noYarn] = dirs;
    await writeFile(join(pnpm ?? "", "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n");
    await writeFile(join(pinned ?? "", "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n");
    await writeFile(join(pinned ?? "", "package.json"), JSON.stringify({ packageManager: "pnpm@9.15.9" }));
    await writeFile(join(yarn ?? "", "yarn.lock"), "# yarn lockfile v1\n");
    await writeFile(join(noYarn ?? "", "yarn.lock"), "# yarn lockfile v1\n");
    const machine = (dir: string | undefined) => (manager: string) =>
      manager === "pnpm" ? "12.4.2" : manager === "yarn" && dir !== noYarn ? "1.22.22" : undefined;
    expect(dirs.map((dir) => proverCommand(dir, machine(dir)))).toEqual([
      "pnpm prove-scenario",
      "npx prove-scenario",
      "yarn prove-scenario",
      "npx prove-scenario",
      "npx prove-scenario",
    ]);
  });
});
