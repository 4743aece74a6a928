import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { BadRef, NotARepository, SubmodulesFailed, WorktreeFailed } from "../errors.ts";

export interface Commit {
  readonly sha: string;
  readonly subject: string;
}

/** The git operations of a proof. None of them touches the invoking checkout's HEAD, index or working tree. */
export interface GitShape {
  /** The top folder of the repository holding `dir`. */
  readonly toplevel: (dir: string) => Effect.Effect<string, NotARepository>;
  readonly resolveCommit: (repo: string, ref: string, flag: BadRef["flag"]) => Effect.Effect<Commit, BadRef>;
  /** A detached worktree of `sha` at `path`, with the repository's hooks switched off. */
  readonly addWorktree: (repo: string, path: string, sha: string) => Effect.Effect<void, WorktreeFailed>;
  /** Deletes a worktree's folder and forgets it; never fails. */
  readonly removeWorktree: (repo: string, path: string) => Effect.Effect<void>;
  /**
   * Forgets worktrees whose folders are gone; never fails. With `under`, worktrees in that folder are
   * unlocked first: a killed `git worktree add` leaves its entry locked, which prune would keep.
   */
  readonly prune: (repo: string, under?: string) => Effect.Effect<void>;
  /** Checks out the submodules of the worktree at `path` (of `repo`, at `sha`), without writing to the repository's config. */
  readonly checkoutSubmodules: (repo: string, path: string, sha: string) => Effect.Effect<void, SubmodulesFailed>;
  /**
   * Whether two commits have byte-identical dependency manifests (package.json, lockfiles, .npmrc,
   * workspace files) and `file:` dependencies; false when git cannot tell.
   */
  readonly sameDependencies: (repo: string, a: string, b: string) => Effect.Effect<boolean>;
  /** Whether git ignores `path` (absolute, in `repo`'s working tree); false when git cannot tell. */
  readonly isIgnored: (repo: string, path: string) => Effect.Effect<boolean>;
}

export class Git extends Context.Service<Git, GitShape>()("prove/Git") {}
