import { join, resolve } from "node:path";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Ref from "effect/Ref";
import * as Result from "effect/Result";
import * as Scope from "effect/Scope";
import type { ProveOptions } from "../cli/args.ts";
import { couldNotRun, ReportWriteFailed, type Interrupted, type StopError } from "../errors.ts";
import type { Commit } from "../git/git.ts";
import { Progress } from "../progress/progress.ts";
import { redact, type Replacement } from "../report/redact.ts";
import { writeReport } from "../report/write-report.ts";
import type { ProofSummary, SummaryCommit, SummaryRow } from "../summary/schema.ts";
import { overall, sortRows } from "../summary/summarize.ts";
import { writeSummary } from "../summary/write-summary.ts";
import { checkOut } from "./out-folder.ts";
import { defaultManyOutDir, proverCommand, reproduceCommand, scenarioFolder } from "./paths.ts";
import { decideScenario, machinePaths, sideEvidence } from "./prove.ts";
import { claimOnce } from "./report-claim.ts";
import { findManyPlace, loadScenarios, shardSlice, type ListedScenario, type ManyPlace } from "./scenarios.ts";
import { sideContext } from "./side.ts";
import { bothSides, resolveRefs, runFolder } from "./steps.ts";

/** What is known so far, so a proof that stops early still writes a summary saying why. */
interface Facts {
  readonly place?: ManyPlace;
  readonly base?: Commit;
  readonly head?: Commit;
  readonly runDir?: string;
  /** The summary's folder, once claimed for this proof. */
  readonly out?: string;
}

export interface ManyResult {
  readonly exitCode: 0 | 1 | 2;
  /** Undefined when the summary folder could not be written. */
  readonly summary: ProofSummary | undefined;
  /** The summary's folder, absolute. */
  readonly dir: string;
  /** Why it could not run, when it could not. */
  readonly message: string | undefined;
}

interface ManyInput {
  readonly options: ProveOptions;
  readonly cwd: string;
  readonly secrets: ReadonlyArray<Replacement>;
  readonly startedAt: number;
}

const rootOf = (input: ManyInput, facts: Facts) => facts.place?.root ?? input.cwd;

const outDir = (input: ManyInput, facts: Facts) =>
  facts.out ??
  (input.options.out === undefined
    ? defaultManyOutDir(rootOf(input, facts), input.options, facts.base?.sha, facts.head?.sha)
    : resolve(input.cwd, input.options.out));

const commandOf = (input: ManyInput, facts: Facts, options: Parameters<typeof reproduceCommand>[0]) =>
  reproduceCommand(
    options,
    { cwd: input.cwd, root: rootOf(input, facts), prover: proverCommand(rootOf(input, facts)), configFile: facts.place?.configFile },
    { base: facts.base?.sha, head: facts.head?.sha, repo: facts.place?.repo },
  );

const summaryCommit = (ref: string, commit: Commit | undefined): SummaryCommit => ({
  ref,
  sha: commit?.sha ?? null,
  subject: commit?.subject ?? null,
});

/** The scenario's folder in the summary's folder: its path, and its test's title when its file holds several. */
const folderOf = (scenario: ListedScenario) => scenarioFolder(scenario.file, scenario.sharesFile ? scenario.test.title : undefined);

/** Writes one scenario's report into its folder and returns its summary row. */
const writeScenarioReport = Effect.fn("Proof.scenarioReport")(function* (
  input: ManyInput,
  facts: Facts,
  scenario: ListedScenario,
  evidence: ReturnType<typeof sideEvidence>,
) {
  const summaryDir = outDir(input, facts);
  const folder = folderOf(scenario);
  const dir = join(summaryDir, folder);
  const decision = decideScenario(input.options, evidence);
  const end = yield* Clock.currentTimeMillis;
  const command = commandOf(input, facts, {
    ...input.options,
    scenarios: [scenario.path],
    grep: scenario.sharesFile ? scenario.test.title : undefined,
  });
  const report = yield* Effect.tryPromise({
    try: () =>
      writeReport({
        dir,
        root: rootOf(input, facts),
        decision,
        scenario: { file: scenario.file, title: scenario.test.title, sha256: scenario.sha256 },
        base: evidence.base,
        head: evidence.head,
        totalMs: end - input.startedAt,
        command,
        secrets: input.secrets,
        paths: machinePaths(rootOf(input, facts), facts.runDir),
      }),
    catch: (error) => new ReportWriteFailed({ dir, detail: error instanceof Error ? error.message : String(error) }),
  });
  return {
    file: scenario.file,
    title: scenario.test.title,
    verdict: report.verdict,
    exitCode: report.exitCode,
    reasonCode: report.reasonCode,
    reason: report.reason,
    dir: folder,
    report: `${folder}/${report.markdown}`,
    redactions: report.redactions,
  } satisfies SummaryRow;
});

/** Writes summary.json and summary.md for the rows, or for a proof that stopped before any (`stopped` says why). */
const summarize = Effect.fn("Proof.summary")(function* (input: ManyInput, facts: Facts, rows: ReadonlyArray<SummaryRow>, stopped?: string) {
  const dir = outDir(input, facts);
  const end = yield* Clock.currentTimeMillis;
  const sorted = sortRows(rows);
  const verdict =
    stopped === undefined
      ? overall(sorted)
      : { ...overall(sorted), verdict: "could-not-run" as const, exitCode: 2 as const, reason: stopped };
  const summary: ProofSummary = {
    schema: "scenario-proof-summary/v1",
    ...verdict,
    reason: redact(verdict.reason, input.secrets),
    base: summaryCommit(input.options.base, facts.base),
    head: summaryCommit(input.options.head, facts.head),
    shard: input.options.shard ?? null,
    scenarios: sorted,
    markdown: "summary.md",
    timings: { totalMs: Math.round(end - input.startedAt) },
    // Sorted, so a shard's summary names them as the whole proof's does, whatever order they were typed in.
    command: redact(commandOf(input, facts, { ...input.options, scenarios: [...input.options.scenarios].sort() }), input.secrets),
  };
  yield* Effect.tryPromise({
    try: () => writeSummary(dir, summary),
    catch: (error) => new ReportWriteFailed({ dir, detail: error instanceof Error ? error.message : String(error) }),
  });
  return summary;
});

/** The summary's folder, held as a single proof's report folder (see claimOnce). */
const claimOut = (input: ManyInput, facts: Ref.Ref<Facts>, claims: Scope.Scope) =>
  claimOnce(facts, (known) => outDir(input, known), input.options.out, claims);

/** The proof of several scenarios, inside one scope: one worktree, install and build per side, every scenario run against it. */
const pipeline = Effect.fn("Proof.manyPipeline")(function* (input: ManyInput, facts: Ref.Ref<Facts>, claims: Scope.Scope) {
  const { options, cwd } = input;
  const progress = yield* Progress;
  yield* checkOut(options, cwd);
  const place = yield* findManyPlace(options, cwd);
  yield* Ref.update(facts, (known) => ({ ...known, place }));
  const [base, head] = yield* resolveRefs(options, place.repo);
  yield* Ref.update(facts, (known) => ({ ...known, base, head }));
  yield* claimOut(input, facts, claims);
  const all = yield* loadScenarios(options, place);
  const mine = shardSlice(all, options.shard);
  const shard = options.shard === undefined ? "" : ` in shard ${options.shard.index}/${options.shard.total}`;
  yield* progress.line(
    `${mine.length} of ${all.length} scenario${all.length === 1 ? "" : "s"}${shard}: ${mine.map((scenario) => folderOf(scenario)).join(", ") || "none"}`,
  );
  const [first, ...rest] = mine;
  if (first === undefined) return yield* summarize(input, yield* Ref.get(facts), []);

  const runDir = yield* runFolder(place.repo, options.keep);
  yield* Ref.update(facts, (known) => ({ ...known, runDir }));
  const context = sideContext({ place, scenarios: [first, ...rest], runDir, cwd, keep: options.keep, repeat: options.repeat });
  const [baseSide, headSide] = yield* bothSides(options, base, head, context);
  const known = yield* Ref.get(facts);
  return yield* progress.step(
    { step: "report", detail: `${mine.length} scenario${mine.length === 1 ? "" : "s"}` },
    // Whole or not at all, as a single proof's report: a stop writes its summary after this one.
    Effect.uninterruptible(
      Effect.gen(function* () {
        const rows: SummaryRow[] = [];
        for (const [index, scenario] of mine.entries()) {
          rows.push(yield* writeScenarioReport(input, known, scenario, sideEvidence(baseSide, headSide, index)));
        }
        return yield* summarize(input, known, rows);
      }),
    ),
  );
});

/** A proof that stopped before its verdicts: a summary with no rows, saying why. */
const stoppedEarly = Effect.fn("Proof.manyStopped")(function* (
  input: ManyInput,
  facts: Ref.Ref<Facts>,
  error: StopError,
  claims: Scope.Scope,
) {
  const stopped = couldNotRun(error);
  if (stopped.reasonCode === undefined)
    return { exitCode: 2, summary: undefined, dir: outDir(input, yield* Ref.get(facts)), message: stopped.message } satisfies ManyResult;
  const taken = yield* claimOut(input, facts, claims).pipe(Effect.result);
  if (Result.isFailure(taken)) {
    return {
      exitCode: 2,
      summary: undefined,
      dir: outDir(input, yield* Ref.get(facts)),
      message: `${stopped.message}\n${taken.failure.message}`,
    } satisfies ManyResult;
  }
  const known = taken.success;
  const dir = outDir(input, known);
  const summary = yield* summarize(input, known, [], stopped.message).pipe(
    Effect.map((written): ProofSummary | undefined => written),
    Effect.orElseSucceed(() => undefined),
  );
  return { exitCode: 2, summary, dir, message: stopped.message } satisfies ManyResult;
});

/**
 * Proves several scenarios (files, folders, or a shard of them) at base and head: each side is
 * checked out, installed and built once, every scenario runs against it, each gets its own
 * report folder and verdict, and summary.md/summary.json sum them up. Exit code: the worst row's.
 */
export const proveMany = Effect.fn("Proof.many")(function* (
  options: ProveOptions,
  cwd: string,
  secrets: ReadonlyArray<Replacement>,
  interrupt: Effect.Effect<never, Interrupted>,
) {
  const input: ManyInput = { options, cwd, secrets, startedAt: yield* Clock.currentTimeMillis };
  const facts = yield* Ref.make<Facts>({});
  // The summary folder's claim outlives the pipeline's own scope: a stopped proof still writes its summary there.
  const claims = yield* Scope.make();
  return yield* Effect.raceFirst(Effect.scoped(pipeline(input, facts, claims)), interrupt).pipe(
    Effect.flatMap((summary) =>
      Ref.get(facts).pipe(
        Effect.map((known): ManyResult => ({ exitCode: summary.exitCode, summary, dir: outDir(input, known), message: undefined })),
      ),
    ),
    Effect.catch((error: StopError) => stoppedEarly(input, facts, error, claims)),
    Effect.onExit((exit) => Scope.close(claims, exit)),
  );
});

/** Whether a proof's scenarios make it one of several: more than one path, a folder, or a shard. */
export function isMany(options: ProveOptions, isFolder: (path: string) => boolean): boolean {
  return options.scenarios.length > 1 || options.shard !== undefined || isFolder(options.scenario);
}
