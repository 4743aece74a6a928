import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planInstall } from "./detect.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A worktree with the given files (paths relative to its root); the app lives in `app/`. */
async function worktree(files: ReadonlyArray<string>) {
  const root = await mkdtemp(join(tmpdir(), "prove-install-"));
  scratch.push(root);
  await mkdir(join(root, "app"));
  for (const file of files) await writeFile(join(root, file), "");
  return root;
}

describe("choosing the install", () => {
  it.each([
    ["a pnpm workspace lockfile at the root", ["pnpm-lock.yaml", "app/package.json"], "pnpm install --frozen-lockfile", "."],
    ["an npm lockfile in the app", ["app/package-lock.json", "app/package.json", "pnpm-lock.yaml"], "npm ci", "app"],
    ["a yarn lockfile at the root", ["yarn.lock", "app/package.json"], "yarn install --frozen-lockfile", "."],
    ["pnpm before npm in one folder", ["app/package-lock.json", "app/pnpm-lock.yaml"], "pnpm install --frozen-lockfile", "app"],
    ["no lockfile", ["app/package.json"], "npm install", "app"],
  ])("runs the package manager of %s", async (_case, files, label, cwd) => {
    const root = await worktree(files);
    const plan = planInstall("auto", join(root, "app"), root);
    expect(plan.kind === "command" ? [plan.label, plan.cwd] : plan).toEqual([label, join(root, cwd)]);
  });

  it("skips an app with no package.json or with install: false, and runs a configured command in the app folder", async () => {
    const root = await worktree(["app/package.json", "app/package-lock.json"]);
    expect(planInstall(false, join(root, "app"), root)).toEqual({ kind: "skip", reason: "app.install is false" });
    const bare = await worktree([]);
    expect(planInstall("auto", join(bare, "app"), bare)).toEqual({ kind: "skip", reason: "no package.json" });
    expect(planInstall("make deps", join(root, "app"), root)).toEqual({
      kind: "command", label: "make deps", command: "make deps", args: undefined, cwd: join(root, "app"),
    });
  });

  it("does not look above the worktree for a lockfile", async () => {
    const root = await worktree(["pnpm-lock.yaml"]);
    const inner = join(root, "app");
    await writeFile(join(inner, "package.json"), "{}");
    const plan = planInstall("auto", inner, inner);
    expect(plan.kind === "command" ? plan.label : plan).toBe("npm install");
  });
});
