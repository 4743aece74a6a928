import { readdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { Effect } from "effect";
import { execa } from "execa";

/** Every node_modules folder under `root` that an install made (not those inside another, nor in .git). */
async function installedFolders(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === ".git") continue;
      if (entry.name === "node_modules") found.push(join(dir, entry.name));
      else await walk(join(dir, entry.name));
    }
  };
  await walk(root);
  return found;
}

/**
 * Gives worktree `to` the dependencies installed in worktree `from` (same commit's manifests):
 * every node_modules folder, hard-linked file by file (`cp -al`: no byte is copied, and a
 * package's files are the same inodes the install made). Returns how many folders it copied;
 * 0 when there was nothing to copy or `cp` failed, and the side installs for itself.
 */
export const copyInstalled = Effect.fn("Install.reuse")(function* (from: string, to: string) {
  const folders = yield* Effect.promise(() => installedFolders(from));
  if (folders.length === 0) return 0;
  for (const folder of folders) {
    const target = join(to, relative(from, folder));
    const copied = yield* Effect.promise(() => execa("cp", ["-al", folder, dirname(target)], { reject: false, stdin: "ignore" }));
    if (copied.exitCode !== 0) return 0;
  }
  return folders.length;
});
