import { relative, resolve } from "node:path";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Ref from "effect/Ref";
import * as Result from "effect/Result";
import * as Scope from "effect/Scope";
import type { CompareOptions } from "../cli/args.ts";
import { couldNotRun, ReportWriteFailed, type Interrupted, type StopError } from "../errors.ts";
import type { Commit } from "../git/git.ts";
import { defaultOutDir, proverCommand, quote, reproduceCommand } from "../pipeline/paths.ts";
import { machinePaths, runBothSides, type Facts } from "../pipeline/prove.ts";
import { claimOnce } from "../pipeline/report-claim.ts";
import { Progress } from "../progress/progress.ts";
import type { SideEvidence } from "../report/evidence.ts";
import type { Replacement } from "../report/redact.ts";
import type { CompareOutcome } from "./outcome.ts";
import { compareReasonCodes, type CompareReport } from "./schema.ts";
import { writeCompare } from "./write-compare.ts";

export interface CompareResult {
  readonly exitCode: 0 | 2;
  /** Undefined when there was nothing to report (the report folder could not be written). */
  readonly report: CompareReport | undefined;
  /** compare.md's absolute path, when there is a report. */
  readonly reportFile: string | undefined;
  /** Why it could not run, when there is no report to say it. */
  readonly message: string | undefined;
}

interface CompareRun {
  readonly options: CompareOptions;
  readonly cwd: string;
  readonly secrets: ReadonlyArray<Replacement>;
  readonly startedAt: number;
}

const rootOf = (run: CompareRun, facts: Facts) => facts.place?.root ?? run.cwd;

/** --out, else `reports/<scenario path>/<base7>-<head7>-compare`: beside the proof of the same commits, never in it. */
const outDir = (run: CompareRun, facts: Facts) => {
  if (facts.out !== undefined) return facts.out;
  if (run.options.out !== undefined) return resolve(run.cwd, run.options.out);
  const root = rootOf(run, facts);
  const scenario = facts.scenario?.file ?? relative(root, resolve(run.cwd, run.options.scenario));
  return `${defaultOutDir(root, scenario, run.options, facts.base?.sha, facts.head?.sha)}-compare`;
};

/** The command that runs this comparison again from the checkout's root, pinned to the commits it compared. */
const command = (run: CompareRun, facts: Facts) => {
  const root = rootOf(run, facts);
  const again = reproduceCommand(
    { ...run.options, scenarios: [run.options.scenario], repeat: 1 },
    { cwd: run.cwd, root, prover: `${proverCommand(root)} compare`, configFile: facts.place?.configFile },
    { base: facts.base?.sha, head: facts.head?.sha, repo: facts.place?.repo },
  );
  return run.options.threshold === undefined ? again : `${again} --threshold ${quote(String(run.options.threshold))}`;
};

const write = Effect.fn("Compare.writeReport")(function* (
  run: CompareRun,
  facts: Facts,
  sides: { readonly base: SideEvidence; readonly head: SideEvidence },
  stopped?: CompareOutcome,
) {
  const dir = outDir(run, facts);
  const end = yield* Clock.currentTimeMillis;
  return yield* Effect.tryPromise({
    try: () =>
      writeCompare({
        dir,
        root: rootOf(run, facts),
        scenario: {
          file: facts.scenario?.file ?? run.options.scenario,
          title: facts.scenario?.test.title ?? null,
          sha256: facts.scenario?.sha256 ?? null,
        },
        base: sides.base,
        head: sides.head,
        threshold: run.options.threshold,
        totalMs: end - run.startedAt,
        command: command(run, facts),
        secrets: run.secrets,
        paths: machinePaths(rootOf(run, facts), facts.runDir),
        ...(stopped === undefined ? {} : { stopped }),
      }),
    catch: (error) => new ReportWriteFailed({ dir, detail: error instanceof Error ? error.message : String(error) }),
  });
});

const reportFile = (run: CompareRun, facts: Facts, report: CompareReport | undefined) =>
  report === undefined ? undefined : resolve(rootOf(run, facts), report.dir, report.markdown);

const claimOut = (run: CompareRun, facts: Ref.Ref<Facts>, claims: Scope.Scope) =>
  claimOnce(facts, (known) => outDir(run, known), run.options.out, claims);

/** Both sides run as in a proof, each side's outcome deciding nothing, then the report with a difference image per label. */
const pipeline = Effect.fn("Compare.pipeline")(function* (run: CompareRun, facts: Ref.Ref<Facts>, claims: Scope.Scope) {
  const progress = yield* Progress;
  const evidence = yield* runBothSides(run.options, run.cwd, 1, facts, claimOut(run, facts, claims));
  const known = yield* Ref.get(facts);
  // Whole or not at all, as a proof's report: a stop waits for it, then writes the interrupted one over it.
  return yield* progress.step({ step: "report", detail: "differences" }, Effect.uninterruptible(write(run, known, evidence)));
});

/** The report of a comparison that stopped before both sides ran, saying as much as it knew. */
const stoppedEarly = Effect.fn("Compare.stopped")(function* (
  run: CompareRun,
  facts: Ref.Ref<Facts>,
  error: StopError,
  claims: Scope.Scope,
) {
  const stopped = couldNotRun(error);
  const reasonCode = compareReasonCodes.find((code) => code === stopped.reasonCode);
  if (reasonCode === undefined)
    return { exitCode: 2, report: undefined, reportFile: undefined, message: stopped.message } satisfies CompareResult;
  const taken = yield* claimOut(run, facts, claims).pipe(Effect.result);
  if (Result.isFailure(taken))
    return {
      exitCode: 2,
      report: undefined,
      reportFile: undefined,
      message: `${stopped.message}\n${taken.failure.message}`,
    } satisfies CompareResult;
  const known = taken.success;
  const side = (ref: string, commit: Commit | undefined): SideEvidence => ({ ref, commit, attempts: [] });
  const outcome: CompareOutcome = { exitCode: 2, reasonCode, reason: stopped.message };
  const report = yield* write(
    run,
    known,
    { base: side(run.options.base, known.base), head: side(run.options.head, known.head) },
    outcome,
  ).pipe(
    Effect.map((written): CompareReport | undefined => written),
    Effect.orElseSucceed(() => undefined),
  );
  return { exitCode: 2, report, reportFile: reportFile(run, known, report), message: stopped.message } satisfies CompareResult;
});

/**
 * `compare`: the scenario at base and at head, and for every screenshot label both reached a
 * difference image and whether it changed. Exit 0 when it ran, whatever changed or whichever side
 * failed; 2 when it could not (a side that could not run before its first screenshot, no
 * screenshot at all, bad input, interrupted). Stops and cleans up as a proof does.
 */
export const compareScenario = Effect.fn("Compare.run")(function* (
  options: CompareOptions,
  cwd: string,
  secrets: ReadonlyArray<Replacement>,
  interrupt: Effect.Effect<never, Interrupted>,
) {
  const run: CompareRun = { options, cwd, secrets, startedAt: yield* Clock.currentTimeMillis };
  const facts = yield* Ref.make<Facts>({});
  const claims = yield* Scope.make();
  return yield* Effect.raceFirst(Effect.scoped(pipeline(run, facts, claims)), interrupt).pipe(
    Effect.flatMap((report) =>
      Ref.get(facts).pipe(
        Effect.map((known): CompareResult => ({
          exitCode: report.exitCode,
          report,
          reportFile: reportFile(run, known, report),
          message: undefined,
        })),
      ),
    ),
    Effect.catch((error: StopError) => stoppedEarly(run, facts, error, claims)),
    Effect.onExit((exit) => Scope.close(claims, exit)),
  );
});
