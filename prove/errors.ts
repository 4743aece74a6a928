import * as Data from "effect/Data";
import type { AttemptError, ReasonCode } from "./outcome/types.ts";

/**
 * Errors of the prover, each with a message saying what to change. `couldNotRun` maps those that
 * stop a proof to exit 2 and a reasonCode; `attemptErrorOf` those that stop one side to its attempt.
 */

export class UsageError extends Data.TaggedError("UsageError")<{ readonly detail: string }> {
  override get message(): string {
    return `${this.detail}\nRun \`prove-scenario --help\` for the options.`;
  }
}

export class NotARepository extends Data.TaggedError("NotARepository")<{ readonly dir: string; readonly detail: string }> {
  override get message(): string {
    return `${this.dir} is not inside a git repository (${this.detail}). Run from a git checkout or pass --repo <dir> of one.`;
  }
}

/** --repo names a folder that is missing or not in a git repository. */
export class BadRepo extends Data.TaggedError("BadRepo")<{ readonly repo: string; readonly dir: string; readonly detail: string }> {
  override get message(): string {
    return `--repo ${JSON.stringify(this.repo)}: ${this.detail}. Pass the folder of the git repository whose commits you compare (a clone of your app), or leave --repo out to compare the repository you run in.`;
  }
}

export class BadRef extends Data.TaggedError("BadRef")<{
  readonly flag: "--base" | "--head" | "--at" | "--old" | "--new";
  readonly ref: string;
  readonly repo: string;
  readonly detail: string;
  /** The repository is a shallow clone, where an older commit may just not have been fetched. */
  readonly shallow?: boolean;
}> {
  override get message(): string {
    const fetchMore =
      this.shallow === true
        ? ` This clone is shallow, so the commit may not have been fetched: fetch the history with \`git -C ${this.repo} fetch --unshallow\` ` +
          "(in GitHub Actions, `fetch-depth: 0` on actions/checkout), then run the proof again."
        : "";
    return (
      `${this.flag} ${JSON.stringify(this.ref)} does not name a commit in ${this.repo}. ` +
      `Pass a branch, tag or commit that exists there: list them with \`git -C ${this.repo} branch -a\`, ` +
      `\`git -C ${this.repo} tag\` or \`git -C ${this.repo} log --oneline\`.${fetchMore}`
    );
  }
}

export class ScenarioNotFound extends Data.TaggedError("ScenarioNotFound")<{
  readonly file: string;
  readonly detail: string;
}> {
  override get message(): string {
    return `Scenario ${this.file}: ${this.detail}`;
  }
}

export class AmbiguousScenario extends Data.TaggedError("AmbiguousScenario")<{
  readonly file: string;
  readonly grep: string | undefined;
  readonly titles: ReadonlyArray<string>;
}> {
  override get message(): string {
    const which = this.grep === undefined ? "holds" : `has, for --grep ${JSON.stringify(this.grep)},`;
    return (
      `Scenario ${this.file} ${which} ${this.titles.length} tests; a proof runs exactly one. ` +
      `Pass --grep <text> matching one of these titles:\n${this.titles.map((title) => `  - ${title}`).join("\n")}`
    );
  }
}

export class ConfigError extends Data.TaggedError("ConfigError")<{ readonly config: string; readonly detail: string }> {
  override get message(): string {
    return `Scenario config ${this.config}: ${this.detail}`;
  }
}

export class Interrupted extends Data.TaggedError("Interrupted")<{ readonly signal: string }> {
  override get message(): string {
    return `Interrupted by ${this.signal}; worktrees and temporary files were removed. Run the proof again to get a verdict.`;
  }
}

export class ReportWriteFailed extends Data.TaggedError("ReportWriteFailed")<{ readonly dir: string; readonly detail: string }> {
  override get message(): string {
    return `Could not write the report to ${this.dir}: ${this.detail}. Pass --out <dir> with a writable folder.`;
  }
}

/** --out names a folder inside the repository under test that git does not ignore: the report would change the repository's status. */
export class OutInsideRepo extends Data.TaggedError("OutInsideRepo")<{
  readonly out: string;
  readonly repo: string;
  readonly suggestion: string;
}> {
  override get message(): string {
    return (
      `--out ${this.out} is inside the repository under test, ${this.repo}, and git does not ignore it, so the report would show up in its \`git status\`. ` +
      `Pass --out a folder outside the repository, e.g. --out ${this.suggestion}, or one its .gitignore ignores.`
    );
  }
}

/** --out names a report folder that another proof running now is writing. */
export class OutBusy extends Data.TaggedError("OutBusy")<{ readonly out: string; readonly pid: number }> {
  override get message(): string {
    return `--out ${this.out} is being written by another proof running now (pid ${this.pid}). Pass another --out, or run this proof again once that one has ended.`;
  }
}

/** sharp, which reads and draws a report's images, does not load on this machine: checked before either side runs. */
export class ImagesUnavailable extends Data.TaggedError("ImagesUnavailable")<{ readonly detail: string }> {
  override get message(): string {
    return (
      `The report's images cannot be made on this machine: sharp, the image library scenario-prover reads and draws them with, does not load. ` +
      `Install scenario-prover's dependencies again with their optional ones (sharp's build for this platform), then run again. sharp says:\n${this.detail}`
    );
  }
}

/** A proof that stops before a verdict: exit 2 and, when a report can say why, its reasonCode. */
export type StopError =
  | UsageError
  | NotARepository
  | BadRepo
  | BadRef
  | ScenarioNotFound
  | AmbiguousScenario
  | ConfigError
  | Interrupted
  | ReportWriteFailed
  | OutInsideRepo
  | OutBusy
  | ImagesUnavailable;

export interface CouldNotRun {
  readonly exitCode: 2;
  /** Undefined when there is nothing to report (bad command line, unwritable or refused report folder). */
  readonly reasonCode: ReasonCode | undefined;
  readonly message: string;
}

const reasonCodes: { readonly [Tag in StopError["_tag"]]: ReasonCode | undefined } = {
  UsageError: undefined,
  NotARepository: "bad-repo",
  BadRepo: "bad-repo",
  BadRef: "bad-ref",
  ScenarioNotFound: "scenario-not-found",
  AmbiguousScenario: "ambiguous-scenario",
  ConfigError: "config-error",
  Interrupted: "interrupted",
  ReportWriteFailed: undefined,
  OutInsideRepo: undefined,
  OutBusy: undefined,
  ImagesUnavailable: undefined,
};

/** How a proof stopped by `error` ends. */
export function couldNotRun(error: StopError): CouldNotRun {
  return { exitCode: 2, reasonCode: reasonCodes[error._tag], message: error.message };
}

/** Errors that stop one side before Playwright could give an outcome. */

export class WorktreeFailed extends Data.TaggedError("WorktreeFailed")<{
  readonly repo: string;
  readonly sha: string;
  readonly path: string;
  readonly detail: string;
}> {
  override get message(): string {
    return `Could not check out ${this.sha.slice(0, 12)} of ${this.repo} into a worktree at ${this.path}: ${this.detail}. Check that the repository is not corrupt and the temporary folder is writable.`;
  }
}

export class StepFailed extends Data.TaggedError("StepFailed")<{
  readonly step: "install" | "build";
  readonly command: string;
  /** The folder it ran in, as a person finds it in the repository. */
  readonly where: string;
  readonly exitCode: number | undefined;
  readonly logTail: string;
}> {
  override get message(): string {
    const key = this.step === "install" ? "app.install" : "app.build";
    const how = this.exitCode === undefined ? "could not start" : `exited with code ${this.exitCode}`;
    return (
      `${this.step} failed: \`${this.command}\` in ${this.where} ${how}. ` +
      `Fix the ${this.step} at this commit, or set ${key} in the scenario config to a command that works.\n` +
      `Last lines of its log:\n${this.logTail}`
    );
  }
}

/** `install: "auto"` cannot tell which version of the repository's package manager installs it. */
export class InstallUnknown extends Data.TaggedError("InstallUnknown")<{ readonly where: string; readonly detail: string }> {
  override get message(): string {
    return `Cannot tell which version of the package manager installs ${this.where}: ${this.detail}.`;
  }
}

export class RunnerFailed extends Data.TaggedError("RunnerFailed")<{ readonly detail: string; readonly logTail: string }> {
  override get message(): string {
    return `Playwright did not produce a report: ${this.detail}. Check that \`playwright test\` runs with this config.\nLast lines of its output:\n${this.logTail}`;
  }
}

/** `git submodule update` in a side's worktree failed (app.submodules). */
export class SubmodulesFailed extends Data.TaggedError("SubmodulesFailed")<{ readonly sha: string; readonly detail: string }> {
  override get message(): string {
    return `Could not check out the submodules of ${this.sha.slice(0, 12)}: ${this.detail}. Check the URLs in its .gitmodules and that this machine can clone them (relative URLs are resolved against remote.origin.url), or set app.submodules to false.`;
  }
}

export type SideError = WorktreeFailed | SubmodulesFailed | StepFailed | InstallUnknown | RunnerFailed;

/** The `error` attempt of a side that `error` stopped. */
export function attemptErrorOf(error: SideError): AttemptError {
  switch (error._tag) {
    case "WorktreeFailed":
    case "SubmodulesFailed":
      return { kind: "worktree", message: error.message };
    case "StepFailed":
      return { kind: error.step, message: error.message };
    case "InstallUnknown":
      return { kind: "install", message: error.message };
    case "RunnerFailed":
      return { kind: "runner", message: error.message };
  }
}
