import { existsSync } from "node:fs";
import { copyFile, cp, writeFile } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { execa } from "execa";
import { appPath } from "./bugs.ts";
import { SandboxFailed } from "./errors.ts";

/**
 * Writes the sandbox's files: the app without node_modules and the zoo, a root package.json and
 * workspace, and a lockfile cut from this repository's, so installs link from the filled store.
 */
export async function writeSandboxFiles(repoRoot: string, dir: string): Promise<void> {
  const source = join(repoRoot, appPath);
  await cp(source, join(dir, appPath), { recursive: true, filter: (path) => keep(source, path) });
  await writeFile(join(dir, "package.json"), `${JSON.stringify(rootManifest, null, 2)}\n`);
  await writeFile(join(dir, "pnpm-workspace.yaml"), workspace);
  await writeFile(join(dir, ".gitignore"), "node_modules/\n");
  await writeLockfile(repoRoot, dir);
}

// Skips installed dependencies anywhere and the zoo itself (bugs/ at the app's top).
function keep(source: string, path: string): boolean {
  if (basename(path) === "node_modules") return false;
  return relative(source, path).split(sep).join("/") !== "bugs";
}

const rootManifest = {
  name: "agent-chat-demo",
  private: true,
  type: "module",
  description: "A sandbox copy of scenario-prover's agent-chat example, made by `prove-scenario demo`.",
};

// The same build permissions as this repository's workspace: esbuild (tsx) and sharp run their install scripts.
const workspace = ["packages:", `  - ${appPath}`, "allowBuilds:", "  esbuild: true", "  sharp: true", ""].join("\n");

/** The sandbox's lockfile: this repository's, trimmed by pnpm; everything is locked already, so no registry is read. */
async function writeLockfile(repoRoot: string, dir: string): Promise<void> {
  const lockfile = join(repoRoot, "pnpm-lock.yaml");
  if (existsSync(lockfile)) await copyFile(lockfile, join(dir, "pnpm-lock.yaml"));
  const args = ["install", "--lockfile-only", "--prefer-offline", "--no-frozen-lockfile", "--ignore-scripts"];
  const result = await execa("pnpm", args, { cwd: dir, reject: false, stdin: "ignore" });
  if (result.failed) {
    const output = [result.stderr, result.stdout].filter((text) => text !== "").join("\n");
    throw new SandboxFailed({
      step: "lockfile",
      command: `pnpm ${args.join(" ")}`,
      cwd: dir,
      detail: output || (result.shortMessage ?? `exit code ${String(result.exitCode)}`),
    });
  }
}
