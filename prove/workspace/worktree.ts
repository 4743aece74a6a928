import * as Effect from "effect/Effect";
import { Git } from "../git/git.ts";
import { killProcessesUnder } from "../process/stray-processes.ts";

/** A detached worktree of `sha`, removed when the scope closes unless `keep`, after killing processes still inside it. */
export const worktree = Effect.fn("Worktree.acquire")(function* (repo: string, path: string, sha: string, keep: boolean) {
  const git = yield* Git;
  const remove = Effect.promise(() => killProcessesUnder(path)).pipe(Effect.andThen(git.removeWorktree(repo, path)));
  yield* Effect.acquireRelease(git.addWorktree(repo, path, sha), () => (keep ? Effect.void : remove));
  return path;
});
