import { join } from "node:path";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Ref from "effect/Ref";
import * as Scope from "effect/Scope";
import { Git, type Commit } from "../git/git.ts";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import { runSide, type RunName, type SharedInstall, type SideContext, type SideResult } from "../engine/side.ts";
import { Progress } from "../progress/progress.ts";
import { judgeAttempts, type Judged } from "./outcome.ts";

/** One commit run by a bisection (an end or a step): the side's runs and the outcome they give. */
export interface CommitRun {
  /** The side's name in progress and in the run folder: "old", "new", "step3". */
  readonly name: RunName;
  readonly result: SideResult;
  readonly judged: Judged;
}

/** A run's worktree kept, installed, for later runs of commits with the same dependency manifests. */
interface Donor {
  readonly name: RunName;
  readonly sha: string;
  readonly path: string;
}

/** A run whose install failed: a commit with the same dependency manifests would fail the same way. */
interface FailedInstall {
  readonly sha: string;
  readonly attempt: ClassifiedAttempt;
}

/**
 * The installs a bisection knows, one per state of the dependency manifests: a worktree kept
 * installed, or the install that failed.
 */
export interface Installs {
  readonly donors: Ref.Ref<ReadonlyArray<Donor>>;
  readonly failed: Ref.Ref<ReadonlyArray<FailedInstall>>;
}

export const makeInstalls: Effect.Effect<Installs> = Effect.all({
  donors: Ref.make<ReadonlyArray<Donor>>([]),
  failed: Ref.make<ReadonlyArray<FailedInstall>>([]),
});

/** The first of `known` whose commit has the same dependency manifests as `sha`. */
const sameAs = Effect.fn("Bisect.sameInstall")(function* <A extends { readonly sha: string }>(
  repo: string,
  known: ReadonlyArray<A>,
  sha: string,
) {
  const git = yield* Git;
  for (const candidate of known) {
    if (yield* git.sameDependencies(repo, candidate.sha, sha)) return candidate;
  }
  return undefined;
});

const donorFor = (repo: string, installs: Installs, sha: string) =>
  Ref.get(installs.donors).pipe(Effect.flatMap((donors) => sameAs(repo, donors, sha)));

/** A run started in a scope of its own, which `settle` closes or hands to the bisection's. */
export interface StartedRun {
  readonly run: CommitRun;
  readonly scope: Scope.Closeable;
  /** False when the commit was not tried: an install with the same dependency manifests had failed. */
  readonly tried: boolean;
}

/**
 * Runs the scenario at `commit` as the side `name`, in a worktree of its own (install, build,
 * `repeat` runs). It hard-links a kept install when one has the same dependency manifests; or,
 * when `shared` is given, installs or waits as that says (both ends at once).
 */
export const startRun = Effect.fn("Bisect.startRun")(function* (
  name: RunName,
  ref: string,
  commit: Commit,
  context: SideContext,
  installs: Installs,
  shared?: SharedInstall,
) {
  const progress = yield* Progress;
  const scope = yield* Scope.fork(yield* Effect.scope);
  const failed =
    shared === undefined
      ? yield* Ref.get(installs.failed).pipe(Effect.flatMap((known) => sameAs(context.repo, known, commit.sha)))
      : undefined;
  if (failed !== undefined) {
    const error = failed.attempt.attempt.error;
    const message = `not tried: the install failed at ${failed.sha.slice(0, 7)}, whose dependency manifests are the same. ${error?.message ?? ""}`;
    const attempt: ClassifiedAttempt = {
      attempt: { outcome: "error", durationMs: 0, runMs: null, error: { kind: "install", message } },
      artifacts: { screenshots: [] },
    };
    yield* progress.ended(
      { side: name, step: "install", detail: commit.sha.slice(0, 7) },
      `not tried: it failed at ${failed.sha.slice(0, 7)}, whose dependency manifests are the same`,
    );
    const result: SideResult = { ref, commit, attempts: context.scenarios.map(() => [attempt]) };
    return { run: { name, result, judged: judgeAttempts([attempt.attempt]) }, scope, tried: false } satisfies StartedRun;
  }
  const donor = shared === undefined ? yield* donorFor(context.repo, installs, commit.sha) : undefined;
  const reuse = shared ?? (donor === undefined ? undefined : { by: donor.name, installed: yield* Deferred.make<string, void>() });
  if (donor !== undefined && reuse !== undefined) yield* Deferred.succeed(reuse.installed, donor.path);
  const result = yield* runSide(name, ref, commit, { ...context, shared: reuse }).pipe(Scope.provide(scope));
  const judged = judgeAttempts((result.attempts[0] ?? []).map((classified) => classified.attempt));
  return { run: { name, result, judged }, scope, tried: true } satisfies StartedRun;
});

/**
 * Ends a run: its worktree is kept (until the bisection ends) as the install of its dependency
 * manifests when it installed and none is kept for them yet, and removed now otherwise. Its
 * Playwright output stays in the run folder for the report.
 */
export const settle = Effect.fn("Bisect.settle")(function* (started: StartedRun, context: SideContext, installs: Installs) {
  const { name, result } = started.run;
  const attempts = result.attempts[0] ?? [];
  const installFailed = attempts.find(({ attempt }) => attempt.error?.kind === "install");
  if (started.tried && installFailed !== undefined)
    yield* Ref.update(installs.failed, (failed) => [...failed, { sha: result.commit.sha, attempt: installFailed }]);
  const installed =
    started.tried &&
    attempts.length > 0 &&
    installFailed === undefined &&
    !attempts.some(({ attempt }) => attempt.error?.kind === "worktree");
  if (installed && (yield* donorFor(context.repo, installs, result.commit.sha)) === undefined) {
    yield* Ref.update(installs.donors, (donors) => [...donors, { name, sha: result.commit.sha, path: join(context.runDir, name) }]);
    return;
  }
  yield* Scope.close(started.scope, Exit.void);
});
