import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePinnedRepo } from "../e2e/support/user-repos.ts";
import { planInstall } from "./detect.ts";
import { execa } from "execa";
import { corepackShimOnPath, machineVersions, resolvePackageManager, type PackageManager } from "./package-manager.ts";
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

describe("a pinned version where corepack is enabled", () => {
  it("tells the shims `corepack enable` links from a package manager installed on its own, by the first on PATH", async () => {
    const [shims, plain] = [join(work, "corepack-shims"), join(work, "plain-bin")];
    await Promise.all([mkdir(shims), mkdir(plain)]);
    await execa("corepack", ["enable", "--install-directory", shims, "pnpm", "yarn"]);
    await writeFile(join(plain, "pnpm"), "#!/bin/sh\n", { mode: 0o755 });
    const onPath = (manager: PackageManager, ...dirs: string[]) => corepackShimOnPath(manager, dirs.join(":"));
    expect([
      onPath("pnpm", shims),
      onPath("yarn", shims),
      onPath("pnpm", plain),
      onPath("pnpm", plain, shims),
      onPath("pnpm", shims, plain),
      onPath("bun", shims),
    ]).toEqual([true, true, false, false, true, false]);
  });

  it("runs the pinned version through corepack where the machine's package manager is its shim, and through npx where it is not", async () => {
    const dir = join(work, "pinned-for-corepack");
    await mkdir(dir);
    await writeFile(join(dir, "package.json"), JSON.stringify({ packageManager: "pnpm@9.15.9" }));
    await writeFile(join(dir, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n");
    const machine = (manager: PackageManager) => (manager === "pnpm" ? "10.20.0" : undefined);
    const run = (corepack: boolean) => {
      const resolved = resolvePackageManager(dir, dir, machine, () => corepack);
      return resolved?.kind === "run" ? [resolved.via, resolved.prefix.join(" "), resolved.shown] : resolved;
    };
    expect([run(true), run(false)]).toEqual([
      ["corepack", "corepack pnpm@9.15.9", "pnpm@9.15.9"],
      ["npx", "npx --yes --prefix=/ pnpm@9.15.9", "pnpm@9.15.9"],
    ]);
  });
});
