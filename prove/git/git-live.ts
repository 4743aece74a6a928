import { existsSync } from "node:fs";
import { isAbsolute, join, posix, resolve } from "node:path";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type { SimpleGit } from "simple-git";
import { BadRef, NotARepository, SubmodulesFailed, WorktreeFailed } from "../errors.ts";
import { Git, type GitShape } from "./git.ts";
import { gitErrorDetail, userGit } from "./user-git.ts";
import { withRepoLock } from "./repo-lock.ts";
import { removeTree } from "../workspace/remove-tree.ts";

/** git as the user runs it (see userGit); with `abort`, an interrupted proof stops the git command it waits for. */
const client = (baseDir: string, abort?: AbortSignal): SimpleGit => userGit(baseDir, abort === undefined ? {} : { abort });

const toplevel = Effect.fn("Git.toplevel")(function* (dir: string) {
  return yield* Effect.tryPromise({
    try: (signal) => client(dir, signal).revparse(["--show-toplevel"]),
    catch: (error) => new NotARepository({ dir, detail: gitErrorDetail(error) }),
  });
});

const resolveCommit = Effect.fn("Git.resolveCommit")(function* (repo: string, ref: string, flag: BadRef["flag"]) {
  const fail = (error: unknown) => new BadRef({ flag, ref, repo, detail: gitErrorDetail(error) });
  if (ref === "" || ref.startsWith("-")) return yield* Effect.fail(fail(new Error("not a ref")));
  const sha = yield* Effect.tryPromise({
    try: (signal) => client(repo, signal).revparse(["--verify", "--end-of-options", `${ref}^{commit}`]),
    catch: fail,
  }).pipe(
    Effect.catch((error) =>
      Effect.promise((signal) =>
        client(repo, signal)
          .revparse(["--is-shallow-repository"])
          .catch(() => "false"),
      ).pipe(Effect.flatMap((shallow) => Effect.fail(new BadRef({ ...error, shallow: shallow.trim() === "true" })))),
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
      catch: (error) => new WorktreeFailed({ repo, sha, path, detail: gitErrorDetail(error) }),
    }),
    { interruptible: true },
  );
});

const git = (repo: string, args: ReadonlyArray<string>) => Effect.ignore(Effect.tryPromise(() => client(repo).raw([...args])));

/** The locked worktree entries of `repo` whose folders are in `dir`, from `git worktree list --porcelain`. */
const lockedUnder = (repo: string, dir: string) =>
  Effect.promise(() =>
    client(repo)
      .raw(["worktree", "list", "--porcelain"])
      .catch(() => ""),
  ).pipe(
    Effect.map((listed) =>
      listed
        .split(/\n\s*\n/)
        .map((entry) => ({ path: /^worktree (.+)$/m.exec(entry)?.[1], locked: /^locked\b/m.test(entry) }))
        .flatMap(({ path, locked }) => (path !== undefined && locked && (path === dir || path.startsWith(`${dir}/`)) ? [path] : [])),
    ),
  );

const prune = Effect.fn("Git.prune")(function* (repo: string, under?: string) {
  // A repository deleted since (a killed run's, named by its owner.json) has no worktree entries left to forget.
  if (!existsSync(repo)) return;
  yield* withRepoLock(
    repo,
    Effect.gen(function* () {
      for (const path of under === undefined ? [] : yield* lockedUnder(repo, under)) yield* git(repo, ["worktree", "unlock", path]);
      yield* git(repo, ["worktree", "prune"]);
    }),
  );
});

/** A submodule's URL as git resolves a relative one (`./…`, `../…`) against `base`: a URL, an scp-like `host:path`, or a folder. */
export function resolveSubmoduleUrl(url: string, base: string): string {
  if (!url.startsWith("./") && !url.startsWith("../")) return url;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(base)) return new URL(url, base.replace(/\/*$/, "/")).href;
  const scp = /^([^/:]+):(.*)$/.exec(base);
  if (scp !== null && !isAbsolute(base)) return `${scp[1]}:${posix.normalize(posix.join(scp[2] ?? "", url))}`;
  return resolve(base, url);
}

/**
 * `git submodule update --init --recursive` in the worktree, each top-level URL given with `-c`, so
 * git writes nothing into the repository's shared .git/config.
 */
const checkoutSubmodules = Effect.fn("Git.checkoutSubmodules")(function* (repo: string, path: string, sha: string) {
  if (!existsSync(join(path, ".gitmodules"))) return;
  const fail = (error: unknown) => new SubmodulesFailed({ sha, detail: gitErrorDetail(error) });
  const listed = yield* Effect.tryPromise({
    try: (signal) => client(path, signal).raw(["config", "--file", ".gitmodules", "--get-regexp", String.raw`^submodule\..*\.url$`]),
    catch: fail,
  });
  const origin = (yield* Effect.promise((signal) =>
    client(repo, signal)
      .raw(["config", "--get", "remote.origin.url"])
      .catch(() => ""),
  )).trim();
  const base = origin === "" ? repo : origin.startsWith("./") || origin.startsWith("../") ? resolve(repo, origin) : origin;
  const overrides = listed
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      const space = line.indexOf(" ");
      const name = line.slice("submodule.".length, space - ".url".length);
      return ["-c", `submodule.${name}.url=${resolveSubmoduleUrl(line.slice(space + 1).trim(), base)}`];
    });
  yield* Effect.tryPromise({
    try: (signal) => client(path, signal).raw([...overrides, "submodule", "update", "--init", "--recursive"]),
    catch: fail,
  });
});

/** The files whose bytes decide what an install puts in node_modules, anywhere in the tree. */
const dependencyManifests = [
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  "yarn.lock",
  ".yarnrc.yml",
  ".npmrc",
  "bun.lock",
  "bun.lockb",
].flatMap((name) => [`:(glob)${name}`, `:(glob)**/${name}`]);

/** The dependency fields of a package.json whose `file:` specs an install copies from. */
const dependencyFields = ["dependencies", "devDependencies", "optionalDependencies"] as const;

/** The folders and tarballs, relative to the repository, that package.json files at `sha` name as `file:` dependencies. */
async function fileDependencyFolders(repo: string, sha: string): Promise<string[]> {
  const git = client(repo);
  const listed = await git.raw(["grep", "-l", "-F", '"file:', sha, "--", "package.json", ":(glob)**/package.json"]).catch(() => "");
  const manifests = listed
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.slice(sha.length + 1));
  const folders = await Promise.all(
    manifests.map(async (manifest) => {
      const json = JSON.parse(await git.show([`${sha}:${manifest}`])) as Partial<
        Record<(typeof dependencyFields)[number], Record<string, unknown>>
      >;
      return dependencyFields
        .flatMap((field) => Object.values(json[field] ?? {}))
        .filter((spec): spec is string => typeof spec === "string" && spec.startsWith("file:"))
        .map((spec) => posix.normalize(posix.join(posix.dirname(manifest), spec.slice("file:".length))))
        .filter((folder) => !folder.startsWith(".."));
    }),
  );
  return [...new Set(folders.flat())];
}

const sameDependencies = Effect.fn("Git.sameDependencies")(function* (repo: string, a: string, b: string) {
  if (a === b) return true;
  return yield* Effect.tryPromise(async () => {
    const changed = await client(repo).raw(["diff", "--name-only", a, b, "--", ...dependencyManifests]);
    if (changed.trim() !== "") return false;
    const folders = await fileDependencyFolders(repo, a);
    if (folders.length === 0) return true;
    return (await client(repo).raw(["diff", "--name-only", a, b, "--", ...folders])).trim() === "";
  }).pipe(Effect.orElseSucceed(() => false));
});

const isIgnored = Effect.fn("Git.isIgnored")(function* (repo: string, path: string) {
  return yield* Effect.tryPromise((signal) => client(repo, signal).checkIgnore([path])).pipe(
    Effect.map((ignored) => ignored.length > 0),
    Effect.orElseSucceed(() => false),
  );
});

/** Deletes the folder first, outside the lock (a worktree with node_modules takes a while), then prunes its entry. */
const removeWorktree = Effect.fn("Git.removeWorktree")(function* (repo: string, path: string) {
  yield* Effect.promise(() => removeTree(path));
  yield* prune(repo);
});

/** Git through the user's own git. */
export const GitLive = Layer.succeed(Git, {
  toplevel,
  resolveCommit,
  addWorktree,
  removeWorktree,
  prune,
  checkoutSubmodules,
  sameDependencies,
  isIgnored,
} satisfies GitShape);
