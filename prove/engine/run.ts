import { homedir } from "node:os";
import { join, resolve } from "node:path";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Ref from "effect/Ref";
import * as Result from "effect/Result";
import * as Scope from "effect/Scope";
import { type CouldNotRun, type Interrupted, type ReportWriteFailed, type StopError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import type { ReasonCode } from "../outcome/types.ts";
import { validateOut } from "./out-folder.ts";
import { proverCommand, reproduceCommand, type ReproduceOptions } from "./paths.ts";
import { claimOnce } from "./report-claim.ts";
import { Progress, type TimedStep } from "../progress/progress.ts";
import { pathsFrom, type Replacement } from "../report/redact.ts";
import type { Known } from "./known.ts";

/** What every command ends with: its exit code, and its report and report file, or why it has none. */
export interface Ran<R> {
  readonly exitCode: number;
  /** Undefined when there is nothing to report (bad input, a report folder that cannot be written). */
  readonly report: R | undefined;
  /** The report's Markdown file, absolute, when there is a report. */
  readonly reportFile: string | undefined;
  /** Why it could not run, when it could not. */
  readonly message: string | undefined;
}

/** A report as the engine sees it: its exit code and the name of its Markdown file in the report folder. */
export interface Written {
  readonly exitCode: number;
  readonly markdown: string;
}

/** What a command's pipeline gets from the engine. */
export interface Run {
  readonly cwd: string;
  readonly secrets: ReadonlyArray<Replacement>;
  /** Every fact learned so far: a run stopped early reports from them. */
  readonly facts: Ref.Ref<Known>;
  readonly learn: (more: Partial<Known>) => Effect.Effect<void>;
  /** Claims the report folder once (default or --out) and holds it until the command has written its report. */
  readonly claim: Effect.Effect<Known, StopError, Progress>;
  /** The report folder, claimed or as it would be claimed now. */
  readonly outDir: (known: Known) => string;
  /** The invoking checkout: reports go under it and show every path relative to it. */
  readonly root: (known: Known) => string;
  /** This machine's folders as a report shows them. */
  readonly paths: (known: Known) => ReadonlyArray<Replacement>;
  /** Milliseconds since the command started. */
  readonly elapsed: Effect.Effect<number>;
  /** The steps this command has finished so far, with their durations. */
  readonly timed: Effect.Effect<ReadonlyArray<TimedStep>>;
  /** The command line that runs this again from the checkout's root, pinned to the commits known; `word` follows the prover's bin (` compare`). */
  readonly reproduce: (known: Known, options: ReproduceOptions, word?: string) => string;
}

/** A stop that has a report: why, with its reason code. */
export type Stopped = CouldNotRun & { readonly reasonCode: ReasonCode };

/** One command over the engine: where its report goes, its pipeline, and what it reports when stopped early. */
export interface Spec<R extends Written, E> {
  readonly cwd: string;
  readonly secrets: ReadonlyArray<Replacement>;
  /** --out as typed. */
  readonly out: string | undefined;
  /** --repo as typed: --out must not be inside it. */
  readonly repo: string | undefined;
  /** The report folder when --out is not given, from what is known (base and head may not be yet). */
  readonly defaultOut: (known: Known, root: string) => string;
  readonly pipeline: (run: Run) => Effect.Effect<R, E, Git | Progress | Scope.Scope>;
  /** Why the command stopped; `couldNotRun` for the errors every command shares. */
  readonly why: (error: E | StopError) => CouldNotRun;
  /** The report of a run stopped early, when the command writes one for this stop. */
  readonly stopped?: (why: Stopped) => ((run: Run, known: Known) => Effect.Effect<R, ReportWriteFailed, Git | Progress>) | undefined;
}

/**
 * This machine's folders as a report shows them: the worktrees as `<base>` and `<head>`, the rest
 * of the run's temporary folder as `<run>`, the checkout's own paths relative to it, and the
 * developer's home as `~`.
 */
export function machinePaths(root: string, runDir: string | undefined): ReadonlyArray<Replacement> {
  return pathsFrom([
    ...(runDir === undefined
      ? []
      : ([
          [join(runDir, "base"), "<base>"],
          [join(runDir, "head"), "<head>"],
          [runDir, "<run>"],
        ] as const)),
    [root, "."],
    [process.env.HOME ?? homedir(), "~"],
  ]);
}

const nothing = (message: string) => ({ exitCode: 2, report: undefined, reportFile: undefined, message });

/**
 * Runs a command: its pipeline in one scope (every worktree, folder and process is released when
 * it closes), stopped by `interrupt`; a run that stops early writes the report the spec gives
 * for what it knew. The report folder's claim outlives the pipeline's scope, so that report
 * lands in the same folder.
 */
export const runSpec = <R extends Written, E>(
  spec: Spec<R, E>,
  interrupt: Effect.Effect<never, Interrupted>,
): Effect.Effect<Ran<R>, never, Git | Progress> =>
  Effect.gen(function* () {
    const startedAt = yield* Clock.currentTimeMillis;
    const progress = yield* Progress;
    const before = (yield* progress.timed).length;
    const facts = yield* Ref.make<Known>({});
    const claims = yield* Scope.make();
    const root = (known: Known) => known.place?.root ?? spec.cwd;
    const outDir = (known: Known) =>
      known.out ?? (spec.out === undefined ? spec.defaultOut(known, root(known)) : resolve(spec.cwd, spec.out));
    const run: Run = {
      cwd: spec.cwd,
      secrets: spec.secrets,
      facts,
      learn: (more) => Ref.update(facts, (known) => ({ ...known, ...more })),
      claim: claimOnce(facts, outDir, spec.out, claims),
      outDir,
      root,
      paths: (known) => machinePaths(root(known), known.runDir),
      elapsed: Effect.map(Clock.currentTimeMillis, (now) => now - startedAt),
      timed: Effect.map(progress.timed, (steps) => steps.slice(before)),
      reproduce: (known, options, word = "") =>
        reproduceCommand(
          options,
          { cwd: spec.cwd, root: root(known), prover: `${proverCommand(root(known))}${word}`, configFile: known.place?.configFile },
          { base: known.base?.sha, head: known.head?.sha, repo: known.place?.repo },
        ),
    };
    const reportFile = (known: Known, report: R) => join(outDir(known), report.markdown);

    const stoppedEarly = (error: E | StopError) =>
      Effect.gen(function* () {
        const why = spec.why(error);
        const write = why.reasonCode === undefined ? undefined : spec.stopped?.({ ...why, reasonCode: why.reasonCode });
        if (write === undefined) return nothing(why.message) satisfies Ran<R>;
        const taken = yield* run.claim.pipe(Effect.result);
        if (Result.isFailure(taken)) return nothing(`${why.message}\n${taken.failure.message}`) satisfies Ran<R>;
        const report = yield* write(run, taken.success).pipe(
          Effect.map((written): R | undefined => written),
          Effect.orElseSucceed(() => undefined),
        );
        return {
          exitCode: 2,
          report,
          reportFile: report === undefined ? undefined : reportFile(taken.success, report),
          message: why.message,
        } satisfies Ran<R>;
      });

    // --out first of all: even a run that stops at once writes its report there.
    const pipeline: Effect.Effect<R, E | StopError, Git | Progress | Scope.Scope> = Effect.andThen(
      validateOut({ out: spec.out, repo: spec.repo }, spec.cwd),
      spec.pipeline(run),
    );
    return yield* Effect.raceFirst(Effect.scoped(pipeline), interrupt).pipe(
      Effect.flatMap((report) =>
        Ref.get(facts).pipe(
          Effect.map((known): Ran<R> => ({ exitCode: report.exitCode, report, reportFile: reportFile(known, report), message: undefined })),
        ),
      ),
      Effect.catch(stoppedEarly),
      Effect.onExit((exit) => Scope.close(claims, exit)),
    );
  });

/** How a command's report reads at the end of its run: its last lines on stderr, and the verdict CI's outputs carry. */
export interface Presenter<R> {
  readonly lines: (report: R, file: string) => ReadonlyArray<string>;
  readonly verdict: (report: R) => string;
}
