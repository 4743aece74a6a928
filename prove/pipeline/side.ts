import { mkdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { Clock, Effect } from "effect";
import { attemptErrorOf, type SideError } from "../errors.ts";
import type { Commit } from "../git/git.ts";
import { planInstall } from "../install/detect.ts";
import { runStep } from "../install/run-step.ts";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import { describeDurations } from "../outcome/durations.ts";
import { runAttempt, type AttemptInput } from "../playwright/run-attempt.ts";
import { Progress } from "../progress/progress.ts";
import type { AppConfig } from "../scenario/app-config.ts";
import { worktree } from "../workspace/worktree.ts";
import type { Scenario, Workplace } from "./scenario.ts";

/** What both sides share: where to work and what to run. */
export interface SideContext {
  readonly repo: string;
  readonly runDir: string;
  readonly keep: boolean;
  readonly app: AppConfig;
  readonly repeat: number;
  readonly attempt: Omit<AttemptInput, "appRoot" | "dir">;
}

/** The context of a proof's sides, from where the proof runs and the scenario it runs. */
export function sideContext(input: {
  readonly place: Workplace;
  readonly scenario: Scenario;
  readonly runDir: string;
  readonly cwd: string;
  readonly keep: boolean;
  readonly repeat: number;
}): SideContext {
  const { place, scenario, keep } = input;
  return {
    repo: place.repo,
    runDir: input.runDir,
    keep,
    app: scenario.app,
    repeat: input.repeat,
    attempt: {
      cwd: input.cwd,
      root: place.root,
      cli: scenario.cli,
      configFile: place.configFile,
      scenarioFile: place.scenarioFile,
      test: scenario.test,
      keep,
    },
  };
}

export interface SideResult {
  readonly ref: string;
  readonly commit: Commit;
  readonly attempts: ReadonlyArray<ClassifiedAttempt>;
}

/** A side's attempt that gave no Playwright result; `runMs` when a Playwright run was made. */
const errorAttempt = (error: SideError, durationMs: number, runMs: number | null): ClassifiedAttempt => ({
  attempt: { outcome: "error", durationMs, runMs, error: attemptErrorOf(error) },
  artifacts: { screenshots: [] },
});

/** "passed: run 42.6s, of which the test 12.9s", "failed (assertion): run …". */
const describeAttempt = ({ attempt }: ClassifiedAttempt) =>
  `${attempt.error === undefined ? attempt.outcome : `${attempt.outcome} (${attempt.error.kind})`}: ${describeDurations(attempt)}`;

/** Checks the side's commit out, installs and builds it; returns the app's folder in the worktree. */
const prepare = Effect.fn("Side.prepare")(function* (name: string, commit: Commit, context: SideContext, out: string) {
  const progress = yield* Progress;
  const path = yield* progress.step(
    { side: name, step: "worktree", detail: commit.sha.slice(0, 7) },
    worktree(context.repo, join(context.runDir, name), commit.sha, context.keep),
  );
  const appRoot = join(path, context.app.root);
  const where = (dir: string) => `${relative(path, dir) || "the repository's root"} at ${commit.sha.slice(0, 7)}`;
  const plan = planInstall(context.app.install, appRoot, path);
  if (plan.kind === "skip") yield* progress.done({ side: name, step: "install", detail: `skipped (${plan.reason})` }, 0);
  else yield* progress.step({ side: name, step: "install", detail: plan.label }, runStep("install", plan, join(out, "install.log"), where(plan.cwd)));
  const build = context.app.build;
  if (build !== undefined && build !== "") {
    yield* progress.step(
      { side: name, step: "build", detail: build },
      runStep("build", { label: build, command: build, args: undefined, cwd: appRoot }, join(out, "build.log"), where(appRoot)),
    );
  }
  return appRoot;
});

/** One run of the scenario, printed with its outcome; a run that gives no report is an `error` attempt. */
const attemptOnce = Effect.fn("Side.attempt")(function* (name: string, index: number, appRoot: string, context: SideContext, out: string) {
  const progress = yield* Progress;
  const label = { side: name, step: "run" as const, ...(context.repeat > 1 ? { detail: `${index}/${context.repeat}` } : {}) };
  const dir = join(out, String(index));
  yield* Effect.promise(() => mkdir(dir, { recursive: true }));
  yield* progress.started(label);
  const start = yield* Clock.currentTimeMillis;
  const classified = yield* runAttempt({ ...context.attempt, appRoot, dir }).pipe(
    Effect.catch((error: SideError) => Clock.currentTimeMillis.pipe(Effect.map((end) => errorAttempt(error, end - start, end - start)))),
    Effect.onInterrupt(() => Clock.currentTimeMillis.pipe(Effect.flatMap((end) => progress.done(label, end - start, "interrupted after")))),
  );
  if (classified.artifacts.bootMs !== undefined) yield* progress.done({ side: name, step: "boot" }, classified.artifacts.bootMs);
  yield* progress.ended(label, describeAttempt(classified));
  return classified;
});

/**
 * One side of a proof: a worktree of its commit, the install and build, then `repeat` runs of
 * the scenario. A worktree, install or build failure is the side's one `error` attempt.
 */
export const runSide = Effect.fn("Side.run")(function* (name: string, ref: string, commit: Commit, context: SideContext) {
  const out = join(context.runDir, `${name}.out`);
  yield* Effect.promise(() => mkdir(out, { recursive: true }));
  const start = yield* Clock.currentTimeMillis;
  const prepared = yield* prepare(name, commit, context, out).pipe(
    Effect.map((appRoot) => ({ appRoot, failed: undefined })),
    Effect.catch((error: SideError) => Clock.currentTimeMillis.pipe(Effect.map((end) => ({ appRoot: undefined, failed: errorAttempt(error, end - start, null) })))),
  );
  if (prepared.appRoot === undefined) return { ref, commit, attempts: prepared.failed === undefined ? [] : [prepared.failed] } satisfies SideResult;
  const attempts: ClassifiedAttempt[] = [];
  for (let index = 1; index <= context.repeat; index++) attempts.push(yield* attemptOnce(name, index, prepared.appRoot, context, out));
  return { ref, commit, attempts } satisfies SideResult;
});
