import * as Data from "effect/Data";
import * as Effect from "effect/Effect";
import { GitError, type SimpleGitOptions } from "simple-git";
import { gitErrorDetail, userGit } from "../git/user-git.ts";

/** An end of the search: the ref as the user wrote it, and the commit it resolved to. */
export interface End {
  readonly ref: string;
  readonly sha: string;
}

export interface Ends {
  /** The repository's top folder. */
  readonly repo: string;
  readonly old: End;
  readonly new: End;
}

const short = (end: End) => (end.ref === end.sha ? end.sha.slice(0, 12) : `${end.ref} (${end.sha.slice(0, 12)})`);

export class OldNotAncestor extends Data.TaggedError("OldNotAncestor")<Ends> {
  override get message(): string {
    return (
      `--old ${short(this.old)} is not an ancestor of --new ${short(this.new)}, so no line of commits leads from one to the other. ` +
      `Pass as --old a commit in --new's history: swap them if --old is the newer one, or take their common ancestor, \`git -C ${this.repo} merge-base ${this.old.ref} ${this.new.ref}\`.`
    );
  }
}

/** old is an ancestor of new, but no commit of new's mainline comes after it. */
export class NoCommitsBetween extends Data.TaggedError("NoCommitsBetween")<Ends> {
  override get message(): string {
    if (this.old.sha === this.new.sha) {
      return `--old ${short(this.old)} and --new ${short(this.new)} are the same commit, so there is nothing to search. Pass as --new a later commit whose outcome differs from --old's.`;
    }
    return (
      `--old ${short(this.old)} is in --new ${short(this.new)}'s history only through a merged branch, not on its first-parent line, so no mainline commit lies between them. ` +
      `Pass as --old a commit of \`git -C ${this.repo} log --first-parent --oneline ${this.new.ref}\` from before the merge that brought --old in.`
    );
  }
}

export class BisectGitFailed extends Data.TaggedError("BisectGitFailed")<{
  readonly operation: string;
  readonly command: string;
  readonly repo: string;
  readonly detail: string;
}> {
  override get message(): string {
    return `Could not ${this.operation}: \`${this.command}\` failed in ${this.repo}: ${this.detail}. Check that ${this.repo} is a git repository holding both commits.`;
  }
}

export type CommitsError = OldNotAncestor | NoCommitsBetween | BisectGitFailed;

/** What `merge-base --is-ancestor` says by exiting 1: not an ancestor. A GitError, which simple-git passes on as it is (it wraps any other error). */
class ExitedOne extends GitError {}

/**
 * simple-git takes an exit without a message on stderr for success, and `merge-base --is-ancestor`
 * answers "no" by exit code alone; this makes exit 1 an `ExitedOne`, and any other failure git's
 * message (or the exit code when git gave none).
 */
const exitCodeErrors: SimpleGitOptions["errors"] = (error, result) => {
  if (error !== undefined || result.exitCode === 0) return error;
  if (result.exitCode === 1) return new ExitedOne(undefined, "git exited with code 1");
  const stderr = Buffer.concat(result.stdErr);
  return stderr.length > 0 ? stderr : new Error(`git exited with code ${result.exitCode}`);
};

/** git in `repo` as the user runs it (their whole environment), stopped through `abort` when the effect is interrupted. */
const client = (repo: string, abort: AbortSignal) => userGit(repo, { abort, errors: exitCodeErrors });

const failed = (repo: string, operation: string, args: ReadonlyArray<string>) => (error: unknown) =>
  new BisectGitFailed({ operation, command: `git ${args.join(" ")}`, repo, detail: gitErrorDetail(error) });

/**
 * The commits a bisection probes, oldest first: those after `old` up to and including `new`.
 * Only first parents are followed, so each candidate is a commit of new's mainline (a merge stands
 * for its whole branch): a merged branch's own commits were never checked out on the mainline and
 * may not build or run alone. `--ancestry-path` keeps only commits that descend from `old`.
 */
export const candidateCommits = Effect.fn("Bisect.candidateCommits")(function* (ends: Ends) {
  const { repo, old } = ends;
  const ancestorArgs = ["merge-base", "--is-ancestor", old.sha, ends.new.sha];
  const isAncestor = yield* Effect.tryPromise({
    try: (abort) =>
      client(repo, abort)
        .raw(ancestorArgs)
        .then(
          () => true,
          (error: unknown) => (error instanceof ExitedOne ? false : Promise.reject(error)),
        ),
    catch: failed(repo, "check that --old is an ancestor of --new", ancestorArgs),
  });
  if (!isAncestor) return yield* Effect.fail(new OldNotAncestor(ends));
  const listArgs = ["rev-list", "--reverse", "--first-parent", "--ancestry-path", `${old.sha}..${ends.new.sha}`];
  const listed = yield* Effect.tryPromise({
    try: (abort) => client(repo, abort).raw(listArgs),
    catch: failed(repo, "list the commits between --old and --new", listArgs),
  });
  const commits = listed
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (commits.length === 0) return yield* Effect.fail(new NoCommitsBetween(ends));
  return commits;
});

/** What a report says of a commit. */
export interface CommitDetails {
  readonly sha: string;
  readonly subject: string;
  readonly author: string;
  /** The author date, ISO 8601 with the author's offset. */
  readonly date: string;
}

/** Each commit's subject, author and date, in the order given. */
export const commitDetails = Effect.fn("Bisect.commitDetails")(function* (repo: string, shas: ReadonlyArray<string>) {
  if (shas.length === 0) return [];
  const args = ["show", "--no-patch", "--format=%H%x1f%s%x1f%an%x1f%aI", ...shas];
  const shown = yield* Effect.tryPromise({
    try: (abort) => client(repo, abort).raw(args),
    catch: failed(repo, "read the commits' subjects and authors", args),
  });
  const found = new Map(
    shown
      .split("\n")
      .map((line) => line.split("\x1f"))
      .flatMap(([sha, subject, author, date]) =>
        sha === undefined || date === undefined ? [] : [[sha, { sha, subject: subject ?? "", author: author ?? "", date }] as const],
      ),
  );
  return shas.map((sha): CommitDetails => found.get(sha) ?? { sha, subject: "", author: "", date: "" });
});
