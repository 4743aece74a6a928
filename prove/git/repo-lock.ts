import { createHash } from "node:crypto";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { ownerAlive, ownerToken } from "../process/owner.ts";

/**
 * A lock per repository, shared by every prove-scenario process: git cannot add and remove
 * worktrees of one repository at the same time (a concurrent `worktree add` fails reading
 * another one's half-written entry), and two proofs may run at once. The lock is a folder in
 * the temp dir, made atomically with mkdir; one whose owner died is taken over.
 */
const lockDir = (repo: string) => join(tmpdir(), `scenario-prover.lock-${createHash("sha1").update(repo).digest("hex").slice(0, 16)}`);

const orphanAfterMs = 10_000;

const olderThanOrphan = async (path: string) =>
  Date.now() - ((await stat(path).catch(() => undefined))?.mtimeMs ?? Date.now()) > orphanAfterMs;

/**
 * A lock whose owner died (its pid gone, or handed to a process that started later), or that
 * never got an owner file (its owner died in between) and is old enough.
 */
async function stale(dir: string): Promise<boolean> {
  const owner = await readFile(join(dir, "pid"), "utf8").catch(() => "");
  return owner !== "" ? !ownerAlive(owner) : await olderThanOrphan(dir);
}

/**
 * Removes a stale lock while holding `<lock>.takeover` (made with mkdir too), checking again
 * inside it: of two proofs that saw it stale at once, the second would otherwise remove the lock
 * the first has just taken. A `.takeover` left by a proof killed right there is an orphan once old.
 */
async function takeOver(dir: string): Promise<void> {
  const guard = `${dir}.takeover`;
  try {
    await mkdir(guard);
  } catch {
    if (await olderThanOrphan(guard)) await rm(guard, { recursive: true, force: true });
    return;
  }
  try {
    if (await stale(dir)) await rm(dir, { recursive: true, force: true });
  } finally {
    await rm(guard, { recursive: true, force: true });
  }
}

const tryTake = (dir: string) =>
  Effect.promise(async () => {
    try {
      await mkdir(dir);
    } catch {
      if (await stale(dir)) await takeOver(dir);
      return false;
    }
    await writeFile(join(dir, "pid"), ownerToken());
    return true;
  });

/** Each try is whole (a lock made is a lock held); with `interruptible`, the pause between tries can be interrupted. */
const take = (dir: string, interruptible: boolean): Effect.Effect<void> => {
  const pause = interruptible ? Effect.interruptible(Effect.sleep("25 millis")) : Effect.sleep("25 millis");
  return Effect.uninterruptible(tryTake(dir)).pipe(
    Effect.flatMap((taken) => (taken ? Effect.void : pause.pipe(Effect.andThen(take(dir, interruptible))))),
  );
};

/**
 * Runs `effect` holding the repository's worktree lock. With `interruptible`, waiting for it can be
 * interrupted even where `effect` cannot (a worktree being added is a resource's acquisition), so
 * a stopped proof does not wait its turn to add a worktree only to remove it. Without it (removing
 * a worktree, as a stopped proof does), the wait goes on to the end.
 */
export const withRepoLock = <A, E, R>(
  repo: string,
  effect: Effect.Effect<A, E, R>,
  options: { readonly interruptible?: boolean } = {},
): Effect.Effect<A, E, R> =>
  Effect.scoped(
    Effect.acquireRelease(take(lockDir(repo), options.interruptible === true), () =>
      Effect.promise(() => rm(lockDir(repo), { recursive: true, force: true })),
    ).pipe(Effect.andThen(effect)),
  );
