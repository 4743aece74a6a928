import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { ownedName, ownerAlive, ownerInName } from "../../common/ownership.ts";
import { Git } from "../git/git.ts";
import { killProcessesUnder } from "../process/stray-processes.ts";
import { removeTree } from "./remove-tree.ts";

/** One proof's temporary folder: worktrees, Playwright output, homes. */
export interface RunDir {
  readonly path: string;
}

const prefix = "scenario-prover-";

/** A short folder for temporary files whose paths must stay short (a browser's socket): /tmp where TMPDIR is longer. */
export const shortTempRoot = () => (existsSync("/tmp") && tmpdir().length > "/tmp".length ? "/tmp" : tmpdir());

/** The start of a temporary folder's name, `scenario-prover-<owner token>-<kind>`: cleanLeftovers removes it once this process is gone. */
export const ownedPrefix = (kind = "") => `${ownedName(prefix)}${kind}`;

/** Where runs make their folders: TMPDIR, and the short root. */
const runRoots = () => [...new Set([tmpdir(), shortTempRoot()])];
const ownerFile = "owner.json";

/** owner.json in a folder this process made: the repository whose worktrees it holds, if any, and whether --keep keeps it. */
interface Owner {
  readonly pid: number;
  readonly repo?: string;
  readonly keep: boolean;
}

async function readOwner(dir: string): Promise<Owner | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(join(dir, ownerFile), "utf8"));
    if (typeof value !== "object" || value === null) return undefined;
    const { pid, repo, keep } = value as Record<string, unknown>;
    if (typeof pid !== "number") return undefined;
    return { pid, keep: keep === true, ...(typeof repo === "string" ? { repo } : {}) };
  } catch {
    return undefined;
  }
}

/** Writes owner.json into a folder this process made. */
const writeOwner = (dir: string, owner: Omit<Owner, "pid">) =>
  writeFile(join(dir, ownerFile), JSON.stringify({ pid: process.pid, ...owner } satisfies Owner));

/** Marks a folder this process made for --keep, so that no later run removes it as a leftover. */
export const markKept = (dir: string) => writeOwner(dir, { keep: true });

/** What cleanLeftovers did: the folders it removed, and those it could not remove, with why. */
export interface Leftovers {
  readonly removed: ReadonlyArray<string>;
  readonly failed: ReadonlyArray<{ readonly dir: string; readonly detail: string }>;
}

/**
 * Removes what killed runs left behind: their folders (and processes still working in them) and
 * their worktree entries. Folders of live runs and `--keep` folders stay; one it cannot remove is
 * reported, never failed on.
 */
export const cleanLeftovers = Effect.fn("RunDir.cleanLeftovers")(function* (roots: ReadonlyArray<string> = runRoots()) {
  const git = yield* Git;
  const removed: string[] = [];
  const failed: Array<{ readonly dir: string; readonly detail: string }> = [];
  const found = yield* Effect.promise(() =>
    Promise.all(roots.map(async (root) => (await readdir(root).catch(() => [])).map((name) => [root, name] as const))),
  );
  for (const [root, name] of found.flat()) {
    const owner = ownerInName(prefix, name);
    if (owner === undefined || ownerAlive(owner)) continue;
    const dir = join(root, name);
    const written = yield* Effect.promise(() => readOwner(dir));
    if (written?.keep === true) continue;
    const detail = yield* Effect.promise(async () => {
      await killProcessesUnder(dir);
      return removeTree(dir).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    });
    if (written?.repo !== undefined) yield* git.prune(written.repo, dir);
    if (detail === undefined) removed.push(dir);
    else failed.push({ dir, detail });
  }
  return { removed, failed } satisfies Leftovers;
});

const create = (repo: string, keep: boolean, root: string) =>
  Effect.promise(async (): Promise<RunDir> => {
    const path = await mkdtemp(join(root, ownedPrefix()));
    await writeOwner(path, { repo, keep });
    return { path };
  });

const release = (dir: RunDir) =>
  Effect.promise(async () => {
    await killProcessesUnder(dir.path);
    await removeTree(dir.path);
  });

/** The run's temporary folder, removed when the scope closes unless `keep`. */
export const runDirectory = Effect.fn("RunDir.acquire")(function* (repo: string, keep: boolean, root: string = tmpdir()) {
  return yield* Effect.acquireRelease(create(repo, keep, root), (dir) => (keep ? Effect.void : release(dir)));
});
