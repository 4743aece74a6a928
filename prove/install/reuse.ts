import { readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import * as Effect from "effect/Effect";
import { execa } from "execa";

/** Every node_modules folder under `root` that an install made (not those inside another, nor in .git). */
export async function installedFolders(root: string): Promise<string[]> {
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
 * The files of a node_modules folder that hold absolute paths: the `.bin` shims, and the state files
 * at its top (pnpm reinstalls when its workspace state names other paths).
 */
async function pathBearingFiles(folder: string): Promise<string[]> {
  const topDotFile = ["(", "-path", `${folder}/.*`, "!", "-path", `${folder}/*/*`, ")"];
  const run = await execa("find", [folder, "-type", "f", "(", "-path", "*/.bin/*", "-o", ...topDotFile, ")"], {
    reject: false,
    stdin: "ignore",
  });
  return run.exitCode === 0 ? run.stdout.split("\n").filter((line) => line !== "") : [];
}

/** Replaces `from` with `to` inside a copied file, by writing beside it and renaming: it is a hard link to the original. */
async function relocate(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, "utf8");
  if (!text.includes(from)) return;
  const { mode } = await stat(file);
  const next = `${file}.scenario-prover-relocating`;
  await writeFile(next, text.replaceAll(from, to), { mode });
  await rename(next, file);
}

/**
 * Gives worktree `to` the node_modules installed in `from` (same manifests), hard-linked (`cp -al`),
 * with the files that name `from` rewritten. Returns how many folders it copied; 0 means nothing
 * was copied (none, or `cp` failed) and the side must install for itself.
 */
export const copyInstalled = Effect.fn("Install.reuse")(function* (from: string, to: string) {
  const folders = yield* Effect.promise(() => installedFolders(from));
  if (folders.length === 0) return 0;
  for (const folder of folders) {
    const target = join(to, relative(from, folder));
    const copied = yield* Effect.promise(() => execa("cp", ["-al", folder, dirname(target)], { reject: false, stdin: "ignore" }));
    if (copied.exitCode !== 0) return 0;
    const files = yield* Effect.promise(() => pathBearingFiles(target));
    yield* Effect.promise(() => Promise.all(files.map((file) => relocate(file, from, to))));
  }
  return folders.length;
});
