import { rm } from "node:fs/promises";
import { Effect, Layer } from "effect";
import { simpleGit, type SimpleGit } from "simple-git";
import { BadRef, NotARepository, WorktreeFailed } from "../errors.ts";
import { Git, type GitShape } from "./git.ts";
import { withRepoLock } from "./repo-lock.ts";

/**
 * simple-git refuses `-c core.hooksPath` unless told: the prover sets it so no hook runs in a
 * worktree. With `abort`, an interrupted proof stops the git command it was waiting for.
 */
const client = (baseDir: string, abort?: AbortSignal): SimpleGit => simpleGit({ baseDir, unsafe: { allowUnsafeHooksPath: true }, ...(abort === undefined ? {} : { abort }) });

const detail = (error: unknown) =>
  (error instanceof Error ? error.message : String(error))
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("; ");

const toplevel = Effect.fn("Git.toplevel")(function* (dir: string) {
  return yield* Effect.tryPromise({
    try: (signal) => client(dir, signal).revparse(["--show-toplevel"]),
    catch: (error) => new NotARepository({ dir, detail: detail(error) }),
  });
});

const resolveCommit = Effect.fn("Git.resolveCommit")(function* (repo: string, ref: string, flag: BadRef["flag"]) {
  const fail = (error: unknown) => new BadRef({ flag, ref, repo, detail: detail(error) });
  if (ref === "" || ref.startsWith("-")) return yield* Effect.fail(fail(new Error("not a ref")));
  const sha = yield* Effect.tryPromise({
    try: (signal) => client(repo, signal).revparse(["--verify", "--end-of-options", `${ref}^{commit}`]),
    catch: fail,
  }).pipe(
    Effect.catch((error) =>
      Effect.promise((signal) => client(repo, signal).revparse(["--is-shallow-repository"]).catch(() => "false")).pipe(
        Effect.flatMap((shallow) => Effect.fail(new BadRef({ ...error, shallow: shallow.trim() === "true" }))),
      ),
    ),
  );
  const subject = yield* Effect.tryPromise({
    try: (signal) => client(repo, signal).raw(["log", "-1", "--format=%s", sha]),
    catch: fail,
  });
  return { sha: sha.trim(), subject: subject.trim() };
});

const addWorktree = Effect.fn("Git.addWorktree")(function* (repo: string, path: string, sha: string) {
  yield* withRepoLock(
    repo,
    Effect.tryPromise({
      try: () => client(repo).raw(["-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", path, sha]),
      catch: (error) => new WorktreeFailed({ repo, sha, path, detail: detail(error) }),
    }),
  );
});

const git = (repo: string, args: ReadonlyArray<string>) => Effect.ignore(Effect.tryPromise(() => client(repo).raw([...args])));

const prune = Effect.fn("Git.prune")(function* (repo: string) {
  yield* withRepoLock(repo, git(repo, ["worktree", "prune"]));
});

/** The files whose bytes decide what an install puts in node_modules, anywhere in the tree. */
const dependencyManifests = [
  "package.json", "package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", "yarn.lock", ".yarnrc.yml", ".npmrc", "bun.lock", "bun.lockb",
].flatMap((name) => [`:(glob)${name}`, `:(glob)**/${name}`]);

const sameDependencies = Effect.fn("Git.sameDependencies")(function* (repo: string, a: string, b: string) {
  if (a === b) return true;
  return yield* Effect.tryPromise(() => client(repo).raw(["diff", "--name-only", a, b, "--", ...dependencyManifests])).pipe(
    Effect.map((changed) => changed.trim() === ""),
    Effect.orElseSucceed(() => false),
  );
});

const isIgnored = Effect.fn("Git.isIgnored")(function* (repo: string, path: string) {
  return yield* Effect.tryPromise((signal) => client(repo, signal).checkIgnore([path])).pipe(
    Effect.map((ignored) => ignored.length > 0),
    Effect.orElseSucceed(() => false),
  );
});

/** Deletes the folder first, outside the lock (a worktree with node_modules takes a while), then prunes its entry. */
const removeWorktree = Effect.fn("Git.removeWorktree")(function* (repo: string, path: string) {
  yield* Effect.promise(() => rm(path, { recursive: true, force: true }));
  yield* prune(repo);
});

export const GitLive = Layer.succeed(Git, { toplevel, resolveCommit, addWorktree, removeWorktree, prune, sameDependencies, isIgnored } satisfies GitShape);
