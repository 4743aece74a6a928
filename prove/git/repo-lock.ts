import { createHash } from "node:crypto";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Effect } from "effect";
import { alive } from "../process/alive.ts";

/**
 * A lock per repository, shared by every prove-scenario process: git cannot add and remove
 * worktrees of one repository at the same time (a concurrent `worktree add` fails reading
 * another one's half-written entry), and two proofs may run at once. The lock is a folder in
 * the temp dir, made atomically with mkdir; one whose owner died is taken over.
 */
const lockDir = (repo: string) => join(tmpdir(), `scenario-prover.lock-${createHash("sha1").update(repo).digest("hex").slice(0, 16)}`);

const orphanAfterMs = 10_000;

const tryTake = (dir: string) =>
  Effect.promise(async () => {
    try {
      await mkdir(dir);
    } catch {
      const owner = Number(await readFile(join(dir, "pid"), "utf8").catch(() => "0"));
      // Taken over when its owner died, or when it never got a pid file (its owner died in between).
      const orphaned = owner === 0 && Date.now() - ((await stat(dir).catch(() => undefined))?.mtimeMs ?? Date.now()) > orphanAfterMs;
      if (orphaned || (owner > 0 && !alive(owner))) await rm(dir, { recursive: true, force: true });
      return false;
    }
    await writeFile(join(dir, "pid"), String(process.pid));
    return true;
  });

/** Each try is whole (a lock made is a lock held); the pause between tries can be interrupted. */
const take = (dir: string): Effect.Effect<void> =>
  Effect.uninterruptible(tryTake(dir)).pipe(
    Effect.flatMap((taken) => (taken ? Effect.void : Effect.interruptible(Effect.sleep("25 millis")).pipe(Effect.andThen(take(dir))))),
  );

/**
 * Runs `effect` holding the repository's worktree lock. Waiting for it can be interrupted even
 * where `effect` cannot (a worktree being added is a resource's acquisition), so a stopped proof
 * does not wait its turn to add a worktree only to remove it.
 */
export const withRepoLock = <A, E, R>(repo: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.scoped(
    Effect.acquireRelease(take(lockDir(repo)), () => Effect.promise(() => rm(lockDir(repo), { recursive: true, force: true }))).pipe(
      Effect.andThen(effect),
    ),
  );
