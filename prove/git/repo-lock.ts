import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { tryLockDirectory, unlockDirectory } from "../../common/ownership.ts";

/**
 * A directory lock per repository, shared by every prove-scenario process: git cannot add and
 * remove worktrees of one repository at once. A dead owner's lock is taken over (see tryLockDirectory).
 */
const lockDir = (repo: string, tmp: string) =>
  join(tmp, `scenario-prover.lock-${createHash("sha1").update(repo).digest("hex").slice(0, 16)}`);

/** Each try is whole (a lock made is a lock held); with `interruptible`, the pause between tries can be interrupted. */
const take = (dir: string, interruptible: boolean): Effect.Effect<void> => {
  const pause = interruptible ? Effect.interruptible(Effect.sleep("25 millis")) : Effect.sleep("25 millis");
  return Effect.uninterruptible(Effect.promise(() => tryLockDirectory(dir))).pipe(
    Effect.flatMap((taken) => (taken ? Effect.void : pause.pipe(Effect.andThen(take(dir, interruptible))))),
  );
};

/**
 * Runs `effect` holding the repository's worktree lock. With `interruptible`, the wait for the lock
 * can be interrupted even inside an uninterruptible acquisition (adding a worktree); without, it cannot.
 * `tmp` is the TMPDIR of the processes to exclude, by default this one's.
 */
export const withRepoLock = <A, E, R>(
  repo: string,
  effect: Effect.Effect<A, E, R>,
  options: { readonly interruptible?: boolean; readonly tmp?: string } = {},
): Effect.Effect<A, E, R> => {
  const dir = lockDir(repo, options.tmp ?? tmpdir());
  return Effect.scoped(
    Effect.acquireRelease(take(dir, options.interruptible === true), () => Effect.promise(() => unlockDirectory(dir))).pipe(
      Effect.andThen(effect),
    ),
  );
};
