import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { tryLockDirectory, unlockDirectory } from "../../common/ownership.ts";

/**
 * A lock per repository, shared by every prove-scenario process: git cannot add and remove
 * worktrees of one repository at the same time (a concurrent `worktree add` fails reading
 * another one's half-written entry), and two proofs may run at once. The lock is a directory
 * lock in the temp dir (see tryLockDirectory); one whose owner died is taken over.
 */
const lockDir = (repo: string) => join(tmpdir(), `scenario-prover.lock-${createHash("sha1").update(repo).digest("hex").slice(0, 16)}`);

/** Each try is whole (a lock made is a lock held); with `interruptible`, the pause between tries can be interrupted. */
const take = (dir: string, interruptible: boolean): Effect.Effect<void> => {
  const pause = interruptible ? Effect.interruptible(Effect.sleep("25 millis")) : Effect.sleep("25 millis");
  return Effect.uninterruptible(Effect.promise(() => tryLockDirectory(dir))).pipe(
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
      Effect.promise(() => unlockDirectory(lockDir(repo))),
    ).pipe(Effect.andThen(effect)),
  );
