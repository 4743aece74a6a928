import * as Data from "effect/Data";

/** Errors of the GitHub Actions integration; each message names what to change. */

/** `GITHUB_OUTPUT` or `GITHUB_STEP_SUMMARY` is set, but the file it names cannot be appended to. */
export class GithubFileNotWritable extends Data.TaggedError("GithubFileNotWritable")<{
  readonly variable: "GITHUB_OUTPUT" | "GITHUB_STEP_SUMMARY";
  readonly path: string;
  readonly detail: string;
}> {
  override get message(): string {
    return (
      `$${this.variable} names ${this.path}, which could not be appended to (${this.detail}). ` +
      `In a GitHub Actions step the runner sets it to a writable file: leave it unset or as the runner set it. ` +
      `Outside GitHub Actions, unset ${this.variable}.`
    );
  }
}

/** A report folder with none of pr.md, summary.md or report.md to summarize. */
export class NoReportToSummarize extends Data.TaggedError("NoReportToSummarize")<{ readonly dir: string }> {
  override get message(): string {
    return `${this.dir} holds no pr.md, summary.md or report.md. Pass the folder a proof, merge or publish wrote its report to (its --out).`;
  }
}
