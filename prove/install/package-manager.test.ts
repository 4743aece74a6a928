import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePinnedRepo } from "../e2e/support/user-repos.ts";
import { planInstall } from "./detect.ts";
import { machineVersions, type PackageManager } from "./package-manager.ts";
import { runStep } from "./run-step.ts";

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-pinned-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A worktree of the repository's `v1`, installed as a side is; gives the plan's label and the install's log. */
async function installWorktree(name: string, pin: "pnpm" | "yarn", absent?: PackageManager) {
  const repo = await makePinnedRepo(join(work, name), pin);
  const tree = join(work, `${name}-worktree`);
  await repo.git("worktree", "add", "-q", "--detach", tree, "v1");
  const plan = planInstall("auto", tree, tree, (manager) => (manager === absent ? undefined : machineVersions(manager)));
  if (plan.kind !== "command") throw new Error(`no install planned: ${JSON.stringify(plan)}`);
  const log = join(work, `${name}-install.log`);
  await Effect.runPromise(runStep("install", plan, log, "the repository's root at v1"));
  return { tree, label: plan.label, log: await readFile(log, "utf8") };
}

describe("installing a worktree with the package manager its repository pins", () => {
  it("runs pnpm 9 through npx for packageManager pnpm@9.15.9, which this machine's pnpm 12 refuses", async () => {
    const { tree, label, log } = await installWorktree("pnpm9", "pnpm");
    expect(label).toBe("pnpm@9.15.9 install --frozen-lockfile (packageManager in package.json)");
    expect(log).toMatch(/Done in [\d.]+m?s using pnpm v9\.15\.9/);
    expect(await readFile(join(tree, "node_modules", ".modules.yaml"), "utf8")).toContain("packageManager: pnpm@9.15.9");
    expect(await readFile(join(tree, "node_modules", "prices", "index.js"), "utf8")).toContain("exports.add");
  });

  it("runs yarn 1 through npx for a yarn v1 lockfile, on a machine without yarn", async () => {
    const { tree, label, log } = await installWorktree("yarn1", "yarn", "yarn");
    expect(label).toBe("yarn@1 install --frozen-lockfile (yarn lockfile v1 in yarn.lock)");
    expect(log).toMatch(/^yarn install v1\.22\.\d+$/m);
    expect(await readFile(join(tree, "node_modules", ".yarn-integrity"), "utf8")).toContain('"prices@file:./prices"');
  });
});
