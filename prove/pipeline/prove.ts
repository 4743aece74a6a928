import { homedir } from "node:os";
import { join, relative, resolve } from "node:path";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Ref from "effect/Ref";
import * as Result from "effect/Result";
import * as Scope from "effect/Scope";
import type { ProveOptions, ScenarioOptions } from "../cli/args.ts";
import { couldNotRun, ReportWriteFailed, type Interrupted, type StopError } from "../errors.ts";
import type { Commit } from "../git/git.ts";
import type { ProofReport } from "../report/schema.ts";
import { decide, type Decision } from "../outcome/verdict.ts";
import { Progress } from "../progress/progress.ts";
import { refLabel } from "../outcome/ref-label.ts";
import { pathsFrom, type Replacement } from "../report/redact.ts";
import { writeReport, type SideEvidence } from "../report/write-report.ts";
import { checkOut } from "./out-folder.ts";
import { defaultOutDir, proverCommand, reproduceCommand } from "./paths.ts";
import { claimOnce } from "./report-claim.ts";
import { findWorkplace, loadScenario, type Scenario, type Workplace } from "./scenario.ts";
import { sideContext, type SideResult } from "./side.ts";
import { bothSides, resolveRefs, runFolder } from "./steps.ts";

/** What is known so far, so a proof (or a comparison) that stops early still gets a report saying as much as it can. */
export interface Facts {
  readonly place?: Workplace;
  readonly base?: Commit;
  readonly head?: Commit;
  readonly scenario?: Scenario;
  /** The run's temporary folder, once made. */
  readonly runDir?: string;
  /** The report folder, once claimed for this proof. */
  readonly out?: string;
}

export interface ProofResult {
  readonly exitCode: 0 | 1 | 2;
  /** Undefined when there was nothing to report (the report folder could not be written). */
  readonly report: ProofReport | undefined;
  /** report.md's absolute path, when there is a report. */
  readonly reportFile: string | undefined;
  /** Why it could not run, when it could not. */
  readonly message: string | undefined;
}

interface ProofInput {
  readonly options: ProveOptions;
  readonly cwd: string;
  readonly secrets: ReadonlyArray<Replacement>;
  readonly startedAt: number;
  /** The report's reproduce command when it is not the proof's own command line (the demo's). */
  readonly reproduce: string | undefined;
}

/** The invoking checkout: reports go under it and show every path relative to it. */
const rootOf = (input: ProofInput, facts: Facts) => facts.place?.root ?? input.cwd;

const outDir = (input: ProofInput, facts: Facts) => {
  if (facts.out !== undefined) return facts.out;
  if (input.options.out !== undefined) return resolve(input.cwd, input.options.out);
  const root = rootOf(input, facts);
  const scenario = facts.scenario?.file ?? relative(root, resolve(input.cwd, input.options.scenario));
  return defaultOutDir(root, scenario, input.options, facts.base?.sha, facts.head?.sha);
};

const command = (input: ProofInput, facts: Facts) =>
  input.reproduce ??
  reproduceCommand(
    input.options,
    { cwd: input.cwd, root: rootOf(input, facts), prover: proverCommand(rootOf(input, facts)), configFile: facts.place?.configFile },
    { base: facts.base?.sha, head: facts.head?.sha, repo: facts.place?.repo },
  );

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

/** One scenario's evidence from both sides' results: its attempts on each. */
export function sideEvidence(
  base: SideResult,
  head: SideResult,
  scenario: number,
): { readonly base: SideEvidence; readonly head: SideEvidence } {
  const of = (side: SideResult): SideEvidence => ({ ref: side.ref, commit: side.commit, attempts: side.attempts[scenario] ?? [] });
  return { base: of(base), head: of(head) };
}

/** The verdict of one scenario from its evidence, refs shown as typed (or short when a SHA). */
export function decideScenario(
  options: Pick<ProveOptions, "base" | "head">,
  evidence: { readonly base: SideEvidence; readonly head: SideEvidence },
): Decision {
  const attempts = (side: SideEvidence) => side.attempts.map((attempt) => attempt.attempt);
  return decide(
    { ref: refLabel(options.base, evidence.base.commit?.sha), attempts: attempts(evidence.base) },
    { ref: refLabel(options.head, evidence.head.commit?.sha), attempts: attempts(evidence.head) },
  );
}
const write = Effect.fn("Proof.writeReport")(function* (
  input: ProofInput,
  facts: Facts,
  decision: Decision,
  sides: { readonly base: SideEvidence; readonly head: SideEvidence },
) {
  const dir = outDir(input, facts);
  const end = yield* Clock.currentTimeMillis;
  return yield* Effect.tryPromise({
    try: () =>
      writeReport({
        dir,
        root: rootOf(input, facts),
        decision,
        scenario: {
          file: facts.scenario?.file ?? input.options.scenario,
          title: facts.scenario?.test.title ?? null,
          sha256: facts.scenario?.sha256 ?? null,
        },
        base: sides.base,
        head: sides.head,
        totalMs: end - input.startedAt,
        command: command(input, facts),
        secrets: input.secrets,
        paths: machinePaths(rootOf(input, facts), facts.runDir),
      }),
    catch: (error) => new ReportWriteFailed({ dir, detail: error instanceof Error ? error.message : String(error) }),
  });
});

/** report.md's absolute path: report.json's `dir` is relative to the checkout. */
const reportFile = (input: ProofInput, facts: Facts, report: ProofReport | undefined) =>
  report === undefined ? undefined : resolve(rootOf(input, facts), report.dir, report.markdown);

/** The report folder, held so that no other proof writes into it meanwhile (see claimOnce). */
const claimOut = (input: ProofInput, facts: Ref.Ref<Facts>, claims: Scope.Scope) =>
  claimOnce(facts, (known) => outDir(input, known), input.options.out, claims);

/** The options both sides' runs of one scenario take: a proof's and a comparison's. */
export type SidesOptions = ScenarioOptions & Pick<ProveOptions, "base" | "head" | "out" | "sequential">;

/**
 * What a proof and a comparison do before their reports: the workplace, both commits, the
 * scenario, the report folder's claim (`claim`), the run folder, then both sides run `repeat`
 * times. Each fact goes into `facts` once known, so a run stopped early reports what it knew.
 */
export const runBothSides = Effect.fn("Proof.sides")(function* (
  options: SidesOptions,
  cwd: string,
  repeat: number,
  facts: Ref.Ref<Facts>,
  claim: Effect.Effect<unknown, StopError, Progress>,
) {
  yield* checkOut(options, cwd);
  const place = yield* findWorkplace(options, cwd);
  yield* Ref.update(facts, (known) => ({ ...known, place }));
  const [base, head] = yield* resolveRefs(options, place.repo);
  yield* Ref.update(facts, (known) => ({ ...known, base, head }));
  const scenario = yield* loadScenario(options, place);
  yield* Ref.update(facts, (known) => ({ ...known, scenario }));
  yield* claim;

  const runDir = yield* runFolder(place.repo, options.keep);
  yield* Ref.update(facts, (known) => ({ ...known, runDir }));
  const context = sideContext({ place, scenarios: [scenario], runDir, cwd, keep: options.keep, repeat });
  const [baseSide, headSide] = yield* bothSides(options, base, head, context);
  return sideEvidence(baseSide, headSide, 0);
});

/** The proof itself, inside one scope: every worktree, folder and process is released when it closes. */
const pipeline = Effect.fn("Proof.pipeline")(function* (input: ProofInput, facts: Ref.Ref<Facts>, claims: Scope.Scope) {
  const progress = yield* Progress;
  const evidence = yield* runBothSides(input.options, input.cwd, input.options.repeat, facts, claimOut(input, facts, claims));
  const decision = decideScenario(input.options, evidence);
  const known = yield* Ref.get(facts);
  // Whole or not at all: a stop waits for the report, then writes the interrupted one over it,
  // rather than two writers mixing their files in one folder.
  return yield* progress.step({ step: "report" }, Effect.uninterruptible(write(input, known, decision, evidence)));
});

/** The report of a proof that stopped before a verdict, saying as much as it knew. */
const stoppedEarly = Effect.fn("Proof.stopped")(function* (
  input: ProofInput,
  facts: Ref.Ref<Facts>,
  error: StopError,
  claims: Scope.Scope,
) {
  const stopped = couldNotRun(error);
  if (stopped.reasonCode === undefined)
    return { exitCode: 2, report: undefined, reportFile: undefined, message: stopped.message } satisfies ProofResult;
  const taken = yield* claimOut(input, facts, claims).pipe(Effect.result);
  if (Result.isFailure(taken))
    return {
      exitCode: 2,
      report: undefined,
      reportFile: undefined,
      message: `${stopped.message}\n${taken.failure.message}`,
    } satisfies ProofResult;
  const known = taken.success;
  const side = (ref: string, commit: Commit | undefined): SideEvidence => ({ ref, commit, attempts: [] });
  const decision: Decision = { verdict: "could-not-run", exitCode: 2, reasonCode: stopped.reasonCode, reason: stopped.message };
  const report = yield* write(input, known, decision, {
    base: side(input.options.base, known.base),
    head: side(input.options.head, known.head),
  }).pipe(
    Effect.map((written): ProofReport | undefined => written),
    Effect.orElseSucceed(() => undefined),
  );
  return { exitCode: 2, report, reportFile: reportFile(input, known, report), message: stopped.message } satisfies ProofResult;
});

/**
 * Proves a fix: the scenario at base and at head, a verdict, and the report. `interrupt` fails
 * when the user stops the proof (SIGINT, SIGTERM); the pipeline is then interrupted, releases
 * everything it holds, and the report says so. `reproduce` replaces the report's reproduce
 * command when the proof's own command line cannot be run again (a demo's sandbox is gone).
 */
export const proveScenario = Effect.fn("Proof.run")(function* (
  options: ProveOptions,
  cwd: string,
  secrets: ReadonlyArray<Replacement>,
  interrupt: Effect.Effect<never, Interrupted>,
  reproduce?: string,
) {
  const input: ProofInput = { options, cwd, secrets, startedAt: yield* Clock.currentTimeMillis, reproduce };
  const facts = yield* Ref.make<Facts>({});
  // The report folder's claim outlives the pipeline's own scope: a stopped proof still writes its report there.
  const claims = yield* Scope.make();
  return yield* Effect.raceFirst(Effect.scoped(pipeline(input, facts, claims)), interrupt).pipe(
    Effect.flatMap((report) =>
      Ref.get(facts).pipe(
        Effect.map((known): ProofResult => ({
          exitCode: report.exitCode,
          report,
          reportFile: reportFile(input, known, report),
          message: undefined,
        })),
      ),
    ),
    Effect.catch((error: StopError) => stoppedEarly(input, facts, error, claims)),
    Effect.onExit((exit) => Scope.close(claims, exit)),
  );
});
