import * as Data from "effect/Data";

/** Errors of `prove-scenario publish`, each naming what to change. URLs in them are already `withoutCredentials`. */

/** The folder holds no report.json, summary.json, compare.json or bisect.json. */
export class ReportNotFound extends Data.TaggedError("ReportNotFound")<{ readonly dir: string }> {
  override get message(): string {
    return (
      `${this.dir} holds no report.json, summary.json, compare.json or bisect.json. Pass the folder a proof wrote ` +
      `(reports/<scenario>/<base7>-<head7>, or the folder given to --out), the folder of a multi-scenario proof holding summary.json, ` +
      `or the folder a comparison or a bisection wrote.`
    );
  }
}

/** report.json, summary.json or a Markdown file they name is missing, unreadable or of another schema. */
export class BadReport extends Data.TaggedError("BadReport")<{ readonly file: string; readonly detail: string }> {
  override get message(): string {
    return `${this.file}: ${this.detail}. Prove the scenario again to write the report folder afresh, then publish that folder.`;
  }
}

export class UnknownRemote extends Data.TaggedError("UnknownRemote")<{
  readonly repo: string;
  readonly remote: string;
  readonly detail: string;
}> {
  override get message(): string {
    return (
      `${this.repo} has no remote named ${JSON.stringify(this.remote)} (${this.detail}). ` +
      `List its remotes with \`git -C ${this.repo} remote -v\` and pass the one to publish to with --remote <name>.`
    );
  }
}

/** The remote is not on GitHub, so where its files are served is unknown. Checked before anything is pushed. */
export class ImageUrlNeeded extends Data.TaggedError("ImageUrlNeeded")<{
  readonly remote: string;
  /** The remote's URL without credentials. */
  readonly url: string;
  readonly branch: string;
}> {
  override get message(): string {
    return (
      `Remote ${JSON.stringify(this.remote)} (${this.url}) is not on GitHub, so the URL its files are served at is unknown. ` +
      `Pass --image-url <base>, the URL under which the files of branch ${this.branch} are served, ` +
      `e.g. --image-url https://gitlab.example.com/owner/repo/-/raw/${this.branch}`
    );
  }
}

export class BadImageUrl extends Data.TaggedError("BadImageUrl")<{ readonly imageUrl: string }> {
  override get message(): string {
    return `--image-url ${JSON.stringify(this.imageUrl)} is not an absolute http(s) URL. Pass the base URL the branch's files are served under, e.g. --image-url https://example.com/proofs`;
  }
}

/** A git command on the invoking checkout failed (reading config, writing objects, building the tree). */
export class GitFailed extends Data.TaggedError("GitFailed")<{
  readonly operation: string;
  readonly command: string;
  readonly repo: string;
  readonly detail: string;
}> {
  override get message(): string {
    return (
      `Could not ${this.operation}: \`${this.command}\` failed in ${this.repo}: ${this.detail}. ` +
      `Check that ${this.repo} is a git checkout you can write to (publishing writes objects into its .git, nothing else), or pass --repo <dir> of one.`
    );
  }
}

/** Reading the branch from the remote (ls-remote or fetch) failed. */
export class FetchFailed extends Data.TaggedError("FetchFailed")<{
  readonly url: string;
  readonly branch: string;
  readonly detail: string;
}> {
  override get message(): string {
    return (
      `Could not read branch ${this.branch} of ${this.url}: ${this.detail}. ` +
      `Check that you can fetch from it (network, credentials: git never asks for them here), or pass --remote <name> of another remote.`
    );
  }
}

/** The push failed for another reason than the branch moving (credentials, permissions, protection). */
export class PushFailed extends Data.TaggedError("PushFailed")<{ readonly url: string; readonly branch: string; readonly detail: string }> {
  override get message(): string {
    return (
      `Could not push branch ${this.branch} to ${this.url}: ${this.detail}. ` +
      `Check that you may push to it (a credential helper or a token with write access; git never asks for one here), ` +
      `or pass --remote <name> of a remote you can push to, or --branch <name> of a branch you may write.`
    );
  }
}

/** Other publishers kept moving the branch between reading it and pushing, attempt after attempt. */
export class BranchKeptMoving extends Data.TaggedError("BranchKeptMoving")<{
  readonly url: string;
  readonly branch: string;
  readonly attempts: number;
}> {
  override get message(): string {
    return (
      `Branch ${this.branch} of ${this.url} moved before each of ${this.attempts} pushes (others are publishing to it at the same time). ` +
      `Run publish again, or pass --branch <name> of a branch nobody else writes.`
    );
  }
}

export class PrWriteFailed extends Data.TaggedError("PrWriteFailed")<{ readonly file: string; readonly detail: string }> {
  override get message(): string {
    return `Could not write ${this.file}: ${this.detail}. Make the report folder writable and publish again.`;
  }
}

/** Everything publishing can fail with; each stops it with exit 2. */
export type PublishError =
  | ReportNotFound
  | BadReport
  | UnknownRemote
  | ImageUrlNeeded
  | BadImageUrl
  | GitFailed
  | FetchFailed
  | PushFailed
  | BranchKeptMoving
  | PrWriteFailed;

/** The branch moved between reading its tip and pushing, so the publish is rebuilt; never escapes `publishReport`. */
export class BranchMoved extends Data.TaggedError("BranchMoved")<{ readonly branch: string }> {}
