import * as Effect from "effect/Effect";
import { BranchMoved, FetchFailed, GitFailed, PushFailed } from "./errors.ts";
import { runGit } from "./git-run.ts";

/**
 * The publish branch, read and written with plumbing only: the invoking checkout gains objects and
 * nothing else (fetches and pushes name a URL, never a remote; the tree is built in a temporary index).
 */

export interface Destination {
  /** The top folder of the invoking checkout. */
  readonly repo: string;
  readonly fetchUrl: string;
  readonly pushUrl: string;
  /** The fetch and push URLs without credentials, for messages. */
  readonly shownUrl: string;
  readonly shownPushUrl: string;
  readonly branch: string;
}

/** A file to publish. */
export interface BranchFile {
  /** Where the file goes on the branch. */
  readonly path: string;
  /** The file on disk, absolute. */
  readonly source: string;
}

const ref = (branch: string) => `refs/heads/${branch}`;

/** Settings that would let an index command write beside the temporary index, into the checkout's .git. */
const indexOnly = ["-c", "core.splitIndex=false", "-c", "core.untrackedCache=false", "-c", "core.fsmonitor=false"];

const failed = (repo: string, operation: string, args: ReadonlyArray<string>) => (detail: string) =>
  new GitFailed({ operation, command: `git ${args.slice(0, 3).join(" ")}`, repo, detail });

/** The commit the branch points at on the remote; undefined when it does not exist yet. */
export const remoteTip = Effect.fn("Publish.remoteTip")(function* (destination: Destination) {
  const output = yield* runGit(
    destination.repo,
    ["ls-remote", destination.fetchUrl, ref(destination.branch)],
    (detail) => new FetchFailed({ url: destination.shownUrl, branch: destination.branch, detail }),
  );
  const line = output.split("\n").find((entry) => entry.split("\t")[1] === ref(destination.branch));
  return line?.split("\t")[0];
});

/**
 * Fetches the branch's objects (no ref, no FETCH_HEAD, no maintenance) and gives `tip`'s tree.
 * `tip` missing after the fetch means the branch was rewritten since ls-remote: BranchMoved.
 */
export const fetchTree = Effect.fn("Publish.fetchTree")(function* (destination: Destination, tip: string) {
  yield* runGit(
    destination.repo,
    [
      "fetch",
      "--quiet",
      "--no-tags",
      "--no-write-fetch-head",
      "--no-auto-gc",
      "--no-recurse-submodules",
      destination.fetchUrl,
      ref(destination.branch),
    ],
    (detail) => new FetchFailed({ url: destination.shownUrl, branch: destination.branch, detail }),
  );
  const tree = yield* runGit(
    destination.repo,
    ["rev-parse", "--verify", "--quiet", `${tip}^{tree}`],
    () => new BranchMoved({ branch: destination.branch }),
  );
  return tree.trim();
});

/** Writes each file as a blob, bytes as they are (no filters), and gives the tree entries. */
export const writeBlobs = Effect.fn("Publish.writeBlobs")(function* (repo: string, files: ReadonlyArray<BranchFile>) {
  if (files.length === 0) return [];
  const args = ["hash-object", "-w", "--no-filters", "--", ...files.map((file) => file.source)];
  const output = yield* runGit(repo, args, failed(repo, "write the images into the object database", args));
  const shas = output.trim().split("\n");
  return files.map((file, index) => ({ path: file.path, sha: shas[index] ?? "" }));
});

const batches = <T>(items: ReadonlyArray<T>, size = 200): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/**
 * The tree of `tip` (empty when there is none) with `folders` replaced by exactly `blobs`, built in
 * the temporary index `indexFile`.
 */
export const buildTree = Effect.fn("Publish.buildTree")(function* (
  repo: string,
  indexFile: string,
  tip: string | undefined,
  folders: ReadonlyArray<string>,
  blobs: ReadonlyArray<{ readonly path: string; readonly sha: string }>,
) {
  const env = { GIT_INDEX_FILE: indexFile };
  const git = (operation: string, args: ReadonlyArray<string>) => runGit(repo, [...indexOnly, ...args], failed(repo, operation, args), env);
  yield* git("read the branch's tree", tip === undefined ? ["read-tree", "--empty"] : ["read-tree", tip]);
  const inFolders = (path: string) => folders.some((folder) => path === folder || path.startsWith(`${folder}/`));
  const stale = (yield* git("list the branch's files", ["ls-files", "-z", "--full-name"]))
    .split("\0")
    .filter((path) => path !== "" && inFolders(path));
  for (const batch of batches(stale)) yield* git("remove the proof's old files", ["update-index", "--force-remove", "--", ...batch]);
  for (const batch of batches(blobs)) {
    yield* git("add the images", [
      "update-index",
      "--add",
      "--replace",
      ...batch.flatMap((blob) => ["--cacheinfo", `100644,${blob.sha},${blob.path}`]),
    ]);
  }
  return (yield* git("write the tree", ["write-tree"])).trim();
});

const fallbackIdentity = { name: "scenario-prover", email: "scenario-prover@users.noreply.github.com" };

/** The author and committer name and email to set, for those neither the checkout's config nor the environment gives. */
export const identity = Effect.fn("Publish.identity")(function* (repo: string) {
  const env: Record<string, string> = {};
  for (const key of ["name", "email"] as const) {
    const args = ["config", "--default", "", "--get", `user.${key}`];
    const configured = (yield* runGit(repo, args, failed(repo, "read the commit identity", args))).trim();
    if (configured !== "") continue;
    for (const role of ["AUTHOR", "COMMITTER"]) {
      const variable = `GIT_${role}_${key.toUpperCase()}`;
      if ((process.env[variable] ?? "") === "") env[variable] = fallbackIdentity[key];
    }
  }
  return env;
});

/** A commit of `tree` on `parent` (none: the first commit of an orphan branch), by `who` from `identity`. */
export const commitTree = Effect.fn("Publish.commitTree")(function* (
  repo: string,
  tree: string,
  parent: string | undefined,
  message: string,
  who: Readonly<Record<string, string>>,
) {
  const args = ["commit-tree", tree, ...(parent === undefined ? [] : ["-p", parent]), "-m", message];
  return (yield* runGit(repo, args, failed(repo, "commit the images", args), who)).trim();
});

/**
 * Pushes `commit` to the branch, never forced, with no hook. On failure the branch is read again: at
 * `commit` it went through after all; moved from `parent`, BranchMoved; else PushFailed.
 */
export const push = Effect.fn("Publish.push")(function* (destination: Destination, commit: string, parent: string | undefined) {
  const pushed = runGit(
    destination.repo,
    ["push", "--quiet", "--no-verify", destination.pushUrl, `${commit}:${ref(destination.branch)}`],
    (detail) => new PushFailed({ url: destination.shownPushUrl, branch: destination.branch, detail }),
  );
  yield* pushed.pipe(
    Effect.catchTag("PushFailed", (error) =>
      remoteTip(destination).pipe(
        Effect.orElseSucceed(() => parent),
        Effect.flatMap((tip): Effect.Effect<void, PushFailed | BranchMoved> => {
          if (tip === commit) return Effect.void;
          return tip === parent ? Effect.fail(error) : Effect.fail(new BranchMoved({ branch: destination.branch }));
        }),
      ),
    ),
  );
});
