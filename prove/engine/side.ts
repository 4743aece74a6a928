import { mkdir, rename, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import * as Clock from "effect/Clock";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Option from "effect/Option";
import * as Ref from "effect/Ref";
import * as Result from "effect/Result";
import { preparedStop } from "../../common/contract.ts";
import { attemptErrorOf, InstallUnknown, type SideError, type WorktreeFailed } from "../errors.ts";
import { Git, type Commit } from "../git/git.ts";
import { planInstall } from "../install/detect.ts";
import { copyInstalled } from "../install/reuse.ts";
import { runStep } from "../install/run-step.ts";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import type { Attempt, SideName } from "../outcome/types.ts";
import { describeDurations, formatDuration } from "../outcome/durations.ts";
import { runAttempt, type AttemptInput } from "../playwright/run-attempt.ts";
import { Progress } from "../progress/progress.ts";
import type { AppConfig } from "../scenario/app-config.ts";
import { worktree } from "../workspace/worktree.ts";
import type { Scenario, Workplace } from "./scenario.ts";

/** What a run of the scenario at one commit is called, in progress and in its folders: a proof's two sides, `run --at`'s one, a bisection's ends and steps. */
export type RunName = SideName | "at" | "old" | "new" | `step${number}`;

/** One scenario a side runs: its file and the test in it. */
export type SideScenario = Pick<AttemptInput, "scenarioFile" | "test">;

/**
 * One side's install, handed to the others when their commits have the same dependency manifests:
 * the side named `by` (base in a proof) installs, the others wait and hard-link its node_modules
 * instead of installing again. Fails (and the others install for themselves) when `by` got no
 * install. A bisection hands an earlier step's worktree on this way, already succeeded.
 */
export interface SharedInstall {
  readonly by: RunName;
  /** The worktree of `by`, once installed. */
  readonly installed: Deferred.Deferred<string, void>;
}

/**
 * The scenarios base could not run, shared by both sides of a proof. Each one's verdict is
 * could-not-run on base whatever head does (base's error comes first in the verdict), so head
 * skips it, and when base could not run any (`all`) head is stopped: a proof that cannot prove
 * anything says so without running on. Head's errors do not stop base, whose own error would
 * still come first, so the verdict is the one both sides run to the end would give.
 */
export interface Decided {
  readonly scenarios: Ref.Ref<ReadonlySet<number>>;
  readonly all: Deferred.Deferred<void>;
}

export const makeDecided = Effect.gen(function* () {
  return { scenarios: yield* Ref.make<ReadonlySet<number>>(new Set()), all: yield* Deferred.make<void>() } satisfies Decided;
});

/**
 * A side's first run, started while the side installs and builds: Playwright, its worker and the
 * browser start meanwhile, and the harness waits for `file` before it starts the app (the app
 * sees nothing of it). `ready` succeeds once the side is prepared and fails when it cannot run.
 */
interface Prepared {
  readonly file: string;
  readonly ready: Deferred.Deferred<void, void>;
}

/** What both sides share: where to work and what to run. */
export interface SideContext {
  /** Set when head reuses base's install. */
  readonly shared?: SharedInstall;
  /** Worktrees checked out before the sides started (while the scenario was listed): each one's path, or why it has none. */
  readonly checkedOut?: Partial<Record<RunName, Result.Result<string, WorktreeFailed>>>;
  /** Set when both sides run, so base's errors stop head's useless runs. */
  readonly decided?: Decided;
  readonly repo: string;
  readonly runDir: string;
  readonly keep: boolean;
  readonly app: AppConfig;
  readonly repeat: number;
  /** Run one after the other against the side's one install, in this order. */
  readonly scenarios: ReadonlyArray<SideScenario>;
  /**
   * Why a scenario's runs so far already settle its outcome, so that its remaining `repeat` runs
   * could change nothing (a bisection's commit is skipped once two runs disagree or one cannot
   * run); undefined while they do not. Without it every scenario runs `repeat` times.
   */
  readonly settled?: (runs: ReadonlyArray<Attempt>) => string | undefined;
  readonly attempt: Omit<AttemptInput, "appRoot" | "dir" | "scenarioFile" | "test">;
}

/**
 * The context of a proof's sides, from where the proof runs and the scenarios it runs (all
 * listed from one config, so they share its app and Playwright).
 */
export function sideContext(input: {
  readonly place: Pick<Workplace, "repo" | "root" | "configFile">;
  readonly scenarios: readonly [Scenario, ...Scenario[]];
  readonly runDir: string;
  readonly cwd: string;
  readonly keep: boolean;
  readonly repeat: number;
}): SideContext {
  const { place, scenarios, keep } = input;
  const [first] = scenarios;
  return {
    repo: place.repo,
    runDir: input.runDir,
    keep,
    app: first.app,
    repeat: input.repeat,
    scenarios: scenarios.map((scenario) => ({ scenarioFile: scenario.path, test: scenario.test })),
    attempt: { cwd: input.cwd, root: place.root, cli: first.cli, configFile: place.configFile, keep, expectTimeout: first.expectTimeout },
  };
}

export interface SideResult {
  readonly ref: string;
  readonly commit: Commit;
  /** Each scenario's attempts, in the context's order. */
  readonly attempts: ReadonlyArray<ReadonlyArray<ClassifiedAttempt>>;
}

/** A side's attempt that gave no Playwright result; `runMs` when a Playwright run was made. */
export const errorAttempt = (error: SideError, durationMs: number, runMs: number | null): ClassifiedAttempt => ({
  attempt: { outcome: "error", durationMs, runMs, error: attemptErrorOf(error) },
  artifacts: { screenshots: [] },
});

/** "passed: run 42.6s, of which the test 12.9s", "failed (assertion): run …". */
const describeAttempt = ({ attempt }: ClassifiedAttempt) =>
  `${attempt.error === undefined ? attempt.outcome : `${attempt.outcome} (${attempt.error.kind})`}: ${describeDurations(attempt)}`;

/**
 * This side's install from the shared one, when there is one made by another side: true when it
 * was reused. The other side's commit has the same dependency manifests (the shared install's
 * condition), so on this machine its install ran this side's command, the same package manager
 * version included: planned again from its worktree after the install, the plan would see
 * what that install wrote (the lockfile of a repository that had none) and name another command.
 */
const reuseSharedInstall = Effect.fn("Side.reuseInstall")(function* (name: RunName, path: string, context: SideContext) {
  const progress = yield* Progress;
  const shared = context.shared;
  if (shared === undefined || name === shared.by) return false;
  const start = yield* Clock.currentTimeMillis;
  const from = yield* Deferred.await(shared.installed).pipe(Effect.option);
  if (Option.isNone(from)) return false;
  const waited = yield* Clock.currentTimeMillis;
  const copied = yield* copyInstalled(from.value, path);
  if (copied === 0) return false;
  const end = yield* Clock.currentTimeMillis;
  // The wait for the other side's install and the copy are shown apart: only the copy is this side's own work.
  const times = `copied in ${formatDuration(end - waited)}, after waiting ${formatDuration(waited - start)} for ${shared.by}'s install`;
  yield* progress.ended(
    { side: name, step: "install", detail: `${shared.by}'s, hard-linked (the same dependency manifests)` },
    times,
    end - waited,
  );
  return true;
});

/** The side's worktree of its commit, in the run folder, removed with the scope that is current unless `keep`. */
export const checkOut = (name: RunName, commit: Commit, where: Pick<SideContext, "repo" | "runDir" | "keep">) =>
  Effect.gen(function* () {
    const progress = yield* Progress;
    return yield* progress.step(
      { side: name, step: "worktree", detail: commit.sha.slice(0, 7) },
      worktree(where.repo, join(where.runDir, name), commit.sha, where.keep),
    );
  });

/**
 * `prepare`, after which the installing side that got no install (a failure, an interrupt, nothing to
 * install) lets the others install for themselves.
 */
export const prepareShared = (name: RunName, commit: Commit, context: SideContext, out: string) =>
  prepare(name, commit, context, out).pipe(
    Effect.ensuring(
      context.shared !== undefined && name === context.shared.by ? Deferred.fail(context.shared.installed, undefined) : Effect.void,
    ),
  );

/** Checks the side's commit out (unless it was, earlier), installs and builds it; returns the app's folder in the worktree. */
export const prepare = Effect.fn("Side.prepare")(function* (name: RunName, commit: Commit, context: SideContext, out: string) {
  const progress = yield* Progress;
  const early = context.checkedOut?.[name];
  const path = yield* early === undefined ? checkOut(name, commit, context) : Effect.fromResult(early);
  if (context.app.submodules) {
    const git = yield* Git;
    yield* progress.step({ side: name, step: "worktree", detail: "submodules" }, git.checkoutSubmodules(context.repo, path, commit.sha));
  }
  const appRoot = join(path, context.app.root);
  const where = (dir: string) => `${relative(path, dir) || "the repository's root"} at ${commit.sha.slice(0, 7)}`;
  const plan = planInstall(context.app.install, appRoot, path);
  if (plan.kind === "unknown") return yield* Effect.fail(new InstallUnknown({ where: where(appRoot), detail: plan.detail }));
  if (plan.kind === "skip") yield* progress.done({ side: name, step: "install", detail: `skipped (${plan.reason})` }, 0);
  else if (!(yield* reuseSharedInstall(name, path, context))) {
    yield* progress.step(
      { side: name, step: "install", detail: plan.label },
      runStep("install", plan, join(out, "install.log"), where(plan.cwd)),
    );
    if (context.shared !== undefined && name === context.shared.by) yield* Deferred.succeed(context.shared.installed, path);
  }
  const build = context.app.build;
  if (build !== undefined && build !== "") {
    yield* progress.step(
      { side: name, step: "build", detail: build },
      runStep("build", { label: build, command: build, args: undefined, cwd: appRoot }, join(out, "build.log"), where(appRoot)),
    );
  }
  return appRoot;
});

/** "2/3 scenarios/b.e2e.ts" for the second of three scenarios, "1/2" for a repeat; what a run's progress line names. */
function runDetail(context: SideContext, scenario: number, index: number): string | undefined {
  const count = context.scenarios.length;
  const which =
    count > 1 ? `${scenario + 1}/${count} ${relative(context.attempt.root, context.scenarios[scenario]?.scenarioFile ?? "")}` : undefined;
  const repeat = context.repeat > 1 ? `${count > 1 ? "run " : ""}${index}/${context.repeat}` : undefined;
  const detail = [which, repeat].filter((part) => part !== undefined).join(", ");
  return detail === "" ? undefined : detail;
}

/**
 * One run of a scenario, printed with its outcome (its progress `detail` given, or the scenario's
 * and the repeat's number); a run that gives no report is an `error` attempt.
 */
export const attemptOnce = Effect.fn("Side.attempt")(function* (
  name: RunName,
  scenario: number,
  index: number,
  appRoot: string,
  context: SideContext,
  out: string,
  prepared?: Prepared,
  shownAs?: string,
) {
  const progress = yield* Progress;
  const detail = shownAs ?? runDetail(context, scenario, index);
  const label = { side: name, step: "run" as const, ...(detail === undefined ? {} : { detail }) };
  const dir = join(out, context.scenarios.length > 1 ? `${scenario + 1}-${index}` : String(index));
  const which = context.scenarios[scenario];
  if (which === undefined) return yield* Effect.die(new Error(`no scenario ${scenario} in the side's context`));
  yield* Effect.promise(() => mkdir(dir, { recursive: true }));
  const started = yield* Ref.make<number | undefined>(undefined);
  const begin = progress.started(label).pipe(
    Effect.andThen(Clock.currentTimeMillis),
    Effect.tap((now) => Ref.set(started, now)),
  );
  const run = Effect.result(runAttempt({ ...context.attempt, ...which, appRoot, dir, prepared: prepared?.file }));
  // A run started while its side installs is shown, and timed, from when the side is ready: the time it adds.
  // When the side cannot run, its harness ends the run without starting the app, and it gives nothing.
  const both: Effect.Effect<readonly [number | undefined, Result.Result<ClassifiedAttempt, SideError>], never, Progress> =
    prepared === undefined
      ? Effect.flatMap(begin, (start) => Effect.map(run, (ran) => [start, ran] as const))
      : Effect.all(
          [
            Deferred.await(prepared.ready).pipe(
              Effect.andThen(begin),
              Effect.orElseSucceed(() => undefined),
            ),
            run,
          ],
          {
            concurrency: 2,
          },
        );
  const [start, ran] = yield* both.pipe(
    Effect.onInterrupt(() =>
      Effect.all([Ref.get(started), Clock.currentTimeMillis]).pipe(
        Effect.flatMap(([start, end]) => (start === undefined ? Effect.void : progress.done(label, end - start, "interrupted after"))),
      ),
    ),
  );
  if (start === undefined) return undefined;
  const end = yield* Clock.currentTimeMillis;
  const classified: ClassifiedAttempt = Result.isFailure(ran)
    ? errorAttempt(ran.failure, end - start, end - start)
    : prepared === undefined || ran.success.attempt.runMs === null
      ? ran.success
      : { ...ran.success, attempt: { ...ran.success.attempt, runMs: Math.min(ran.success.attempt.runMs, end - start) } };
  if (classified.artifacts.bootMs !== undefined) yield* progress.done({ side: name, step: "boot" }, classified.artifacts.bootMs);
  yield* progress.ended(label, describeAttempt(classified));
  return classified;
});

/** Marks scenarios base could not run; completes `all` when base could run none. Head's errors decide nothing. */
const markDecided = (name: RunName, context: SideContext, scenarios: ReadonlyArray<number>) => {
  const decided = context.decided;
  if (decided === undefined || name !== "base") return Effect.void;
  return Ref.updateAndGet(decided.scenarios, (known) => new Set([...known, ...scenarios])).pipe(
    Effect.flatMap((known) => (known.size >= context.scenarios.length ? Deferred.succeed(decided.all, undefined) : Effect.void)),
    Effect.asVoid,
  );
};

const isDecided = (context: SideContext, scenario: number) =>
  context.decided === undefined
    ? Effect.succeed(false)
    : Ref.get(context.decided.scenarios).pipe(Effect.map((known) => known.has(scenario)));

/**
 * One side of a proof: a worktree of its commit, the install and build once, then `repeat` runs
 * of each scenario, one scenario after the other. A worktree, install or build failure is every
 * scenario's one `error` attempt. A scenario base could not run is not run again (on either side),
 * and head stops (keeping what it ran) when base could run none.
 */
export const runSide = Effect.fn("Side.run")(function* (name: RunName, ref: string, commit: Commit, context: SideContext) {
  const progress = yield* Progress;
  const out = join(context.runDir, `${name}.out`);
  yield* Effect.promise(() => mkdir(out, { recursive: true }));
  const attempts: ClassifiedAttempt[][] = context.scenarios.map(() => []);
  const work = Effect.gen(function* () {
    const start = yield* Clock.currentTimeMillis;
    // A side that waits for another's install starts its first run now, beside the wait, the copy and the build (see Prepared).
    const early: Prepared | undefined =
      context.shared === undefined ||
      context.shared.by === name ||
      context.repeat < 1 ||
      context.scenarios.length === 0 ||
      (yield* isDecided(context, 0))
        ? undefined
        : { file: join(out, "prepared"), ready: yield* Deferred.make<void, void>() };
    // Where checkOut puts the worktree: the early run's app folder, checked against what prepare gives.
    const earlyRoot = join(context.runDir, name, context.app.root);
    /** Tells the early run's harness to start the app, or to end the run: the side cannot run it. */
    const settle = (go: boolean) =>
      early === undefined
        ? Effect.void
        : // Whole when it appears: written beside it, then renamed into place.
          Effect.promise(async () => {
            await writeFile(`${early.file}.new`, go ? "" : preparedStop);
            await rename(`${early.file}.new`, early.file);
          }).pipe(Effect.andThen(go ? Deferred.succeed(early.ready, undefined) : Deferred.fail(early.ready, undefined)));
    const preparing = prepareShared(name, commit, context, out).pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit)
          ? Effect.flatMap(isDecided(context, 0), (decided) => settle(exit.value === earlyRoot && !decided))
          : settle(false),
      ),
      Effect.map((appRoot) => ({ appRoot, failed: undefined })),
      Effect.catch((error: SideError) =>
        Clock.currentTimeMillis.pipe(Effect.map((end) => ({ appRoot: undefined, failed: errorAttempt(error, end - start, null) }))),
      ),
    );
    const [{ appRoot, failed }, first] =
      early === undefined
        ? [yield* preparing, undefined]
        : yield* Effect.all([preparing, attemptOnce(name, 0, 1, earlyRoot, context, out, early)], { concurrency: 2 });
    if (appRoot === undefined) {
      if (failed !== undefined) for (const runs of attempts) runs.push(failed);
      return yield* markDecided(name, context, [...context.scenarios.keys()]);
    }
    for (const [scenario, runs] of attempts.entries()) {
      for (let index = 1; index <= context.repeat; index++) {
        // The early run counts once made, whatever base decided since.
        const ranEarly = scenario === 0 && index === 1 ? first : undefined;
        if (ranEarly === undefined && (yield* isDecided(context, scenario))) break;
        const attempt = ranEarly ?? (yield* attemptOnce(name, scenario, index, appRoot, context, out));
        if (attempt === undefined) break;
        runs.push(attempt);
        if (attempt.attempt.outcome === "error") yield* markDecided(name, context, [scenario]);
        const settled = index < context.repeat ? context.settled?.(runs.map((run) => run.attempt)) : undefined;
        if (settled !== undefined) {
          const left = context.repeat - index;
          yield* progress.ended(
            { side: name, step: "run", detail: `${index + 1}/${context.repeat}` },
            `${left === 1 ? "the last run" : `the last ${left} runs`} not made: ${settled}`,
          );
          break;
        }
      }
    }
  });
  const decided = context.decided;
  if (decided === undefined || name === "base") yield* work;
  else {
    const stopped = yield* Effect.raceFirst(work.pipe(Effect.as(false)), Deferred.await(decided.all).pipe(Effect.as(true)));
    if (stopped) {
      const what = context.scenarios.length > 1 ? "any scenario" : "the scenario";
      yield* progress.ended(
        { side: name, step: "stopped" },
        `base could not run ${what}, so nothing left to run on ${name} can change the verdict`,
      );
    }
  }
  return { ref, commit, attempts } satisfies SideResult;
});
