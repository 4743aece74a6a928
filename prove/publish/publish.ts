import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Schedule from "effect/Schedule";
import { Progress } from "../progress/progress.ts";
import { ownedPrefix } from "../workspace/run-dir.ts";
import { buildTree, commitTree, fetchTree, identity, push, remoteTip, writeBlobs, type Destination } from "./branch.ts";
import { BadImageUrl, BranchKeptMoving, GitFailed, ImageUrlNeeded, PrWriteFailed, UnknownRemote, type PublishError } from "./errors.ts";
import { runGit } from "./git-run.ts";
import { readProofFolder, type ProofFolder } from "./proof-folder.ts";
import { imageUrlBase, withoutCredentials } from "./remote-url.ts";

export interface PublishOptions {
  /** The folder a proof, comparison or bisection wrote, absolute. */
  readonly reportDir: string;
  /** The user's checkout, absolute: its remote is published to, and nothing else in it changes. */
  readonly repo: string;
  readonly remote: string;
  readonly branch: string;
  /** The URL the branch's files are served under; required when the remote is not on GitHub. */
  readonly imageUrl: string | undefined;
}

export interface PublishResult {
  /** pr.md, absolute. */
  readonly prFile: string;
  readonly branch: string;
  /** The branch tip holding the files; null when the proof has no image, so the remote was not touched. */
  readonly commit: string | null;
  /** False when the branch already held exactly these files (nothing was pushed), or there were none. */
  readonly changed: boolean;
  readonly files: number;
  /** The URL a file's path on the branch is appended to. */
  readonly urlBase: string;
}

/** Pushes attempted when others keep moving the branch: the first and four more after a short, jittered pause. */
const attempts = 5;

const remoteUrl = (repo: string, remote: string, push: boolean) =>
  runGit(
    repo,
    ["remote", "get-url", ...(push ? ["--push"] : []), "--", remote],
    (detail) => new UnknownRemote({ repo, remote, detail }),
  ).pipe(Effect.map((url) => url.trim()));

const destinationOf = Effect.fn("Publish.destination")(function* (options: PublishOptions) {
  const command = "git rev-parse --show-toplevel";
  const repo = (yield* runGit(
    options.repo,
    ["rev-parse", "--show-toplevel"],
    (detail) => new GitFailed({ operation: "find the checkout", command, repo: options.repo, detail }),
  )).trim();
  const fetchUrl = yield* remoteUrl(repo, options.remote, false);
  const pushUrl = yield* remoteUrl(repo, options.remote, true);
  return {
    repo,
    fetchUrl,
    pushUrl,
    shownUrl: withoutCredentials(fetchUrl),
    shownPushUrl: withoutCredentials(pushUrl),
    branch: options.branch,
  } satisfies Destination;
});

/** The URL base for the files, from where they are pushed; checked before anything is pushed. */
function urlBaseOf(destination: Destination, options: PublishOptions) {
  const base = imageUrlBase(destination.pushUrl, destination.branch, options.imageUrl);
  switch (base.kind) {
    case "base":
      return Effect.succeed(base.base);
    case "needs-image-url":
      return Effect.fail(new ImageUrlNeeded({ remote: options.remote, url: destination.shownPushUrl, branch: destination.branch }));
    case "bad-image-url":
      return Effect.fail(new BadImageUrl({ imageUrl: options.imageUrl ?? "" }));
  }
}

const filesText = (count: number) => `${count} file${count === 1 ? "" : "s"}`;

/** Named like a proof's run folder, so one a killed publish left is removed by the next proof. */
const temporaryFolder = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), ownedPrefix("publish-")))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true })),
);

/**
 * Commits the proof's files on the branch's tip, replacing its own folders, and pushes, unless the
 * tip already holds that tree. A push lost to another publisher is retried on the new tip.
 */
const commitAndPush = Effect.fn("Publish.commitAndPush")(function* (destination: Destination, proof: ProofFolder) {
  const progress = yield* Progress;
  const { repo, branch } = destination;
  const blobs = yield* writeBlobs(repo, proof.files);
  const who = yield* identity(repo);
  const indexFile = join(yield* temporaryFolder, "index");
  const attempt = Effect.gen(function* () {
    const tip = yield* remoteTip(destination);
    const tipTree = tip === undefined ? undefined : yield* fetchTree(destination, tip);
    const tree = yield* buildTree(repo, indexFile, tip, proof.folders, blobs);
    if (tip !== undefined && tree === tipTree) return { commit: tip, changed: false };
    const commit = yield* commitTree(repo, tree, tip, proof.message, who);
    yield* progress.line(`publish: pushing ${filesText(proof.files.length)} to ${branch} of ${destination.shownPushUrl}`);
    yield* push(destination, commit, tip);
    return { commit, changed: true };
  });
  const pauses = Schedule.exponential("50 millis").pipe(
    Schedule.jittered,
    Schedule.upTo({ times: attempts - 1 }),
    Schedule.tap(() => progress.line(`publish: push rejected (${branch} moved); fetching and retrying`)),
  );
  return yield* Effect.retry(attempt, { while: (error) => error._tag === "BranchMoved", schedule: pauses }).pipe(
    Effect.catchTag("BranchMoved", () => Effect.fail(new BranchKeptMoving({ url: destination.shownPushUrl, branch, attempts }))),
  );
});

/**
 * Publishes a proof's images to a branch of the checkout's remote (`<scenario>/<base7>-<head7>/`)
 * and writes pr.md beside the report, images linked absolutely. The checkout itself is not changed.
 */
export const publishReport: (options: PublishOptions) => Effect.Effect<PublishResult, PublishError, Progress> = Effect.fn(
  "Publish.publishReport",
)(function* (options: PublishOptions) {
  const progress = yield* Progress;
  const proof = yield* readProofFolder(options.reportDir);
  const destination = yield* destinationOf(options);
  const urlBase = yield* urlBaseOf(destination, options);

  const published = proof.files.length === 0 ? { commit: null, changed: false } : yield* Effect.scoped(commitAndPush(destination, proof));

  yield* Effect.tryPromise({
    try: () => writeFile(proof.prFile, proof.prMarkdown(urlBase)),
    catch: (error) => new PrWriteFailed({ file: proof.prFile, detail: error instanceof Error ? error.message : String(error) }),
  });
  const count = filesText(proof.files.length);
  if (published.commit === null) yield* progress.line(`publish: no images to publish; wrote ${proof.prFile}`);
  else if (published.changed) yield* progress.line(`publish: pushed ${count} to ${options.branch} (${published.commit.slice(0, 7)})`);
  else yield* progress.line(`publish: ${options.branch} already holds these ${count} (${published.commit.slice(0, 7)}); nothing pushed`);

  return {
    prFile: proof.prFile,
    branch: options.branch,
    commit: published.commit,
    changed: published.changed,
    files: proof.files.length,
    urlBase,
  } satisfies PublishResult;
});
