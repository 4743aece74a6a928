import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Ref from "effect/Ref";
import type { ProveOptions } from "../options/index.ts";
import { ReportWriteFailed, couldNotRun, type Interrupted, type StopError } from "../errors.ts";
import type { Commit } from "../git/git.ts";
import { runSpec, type Presenter, type Run, type Spec } from "../engine/run.ts";
import type { Known } from "../engine/known.ts";
import { bothSides, resolveRefs, runFolder, sideEvidence } from "../engine/steps.ts";
import { decideScenario } from "../outcome/decide-scenario.ts";
import { defaultManyOutDir, scenarioFolder } from "../report/folders.ts";
import { findManyPlace, loadScenarios, shardSlice, type ListedScenario } from "../engine/scenarios.ts";
import { sideContext } from "../engine/side.ts";
import { Progress } from "../progress/progress.ts";
import { redact, type Replacement } from "../report/redact.ts";
import { listedWithImages } from "../report/sharp.ts";
import { writeReport } from "../report/write-report.ts";
import type { ProofSummary, SummaryCommit, SummaryRow } from "../summary/schema.ts";
import { overall, sortRows } from "../summary/summarize.ts";
import { writeSummary } from "../summary/write-summary.ts";

const summaryCommit = (ref: string, commit: Commit | undefined): SummaryCommit => ({
  ref,
  sha: commit?.sha ?? null,
  subject: commit?.subject ?? null,
});

/** The scenario's folder in the summary's folder: its path, and its test's title when its file holds several. */
const folderOf = (scenario: ListedScenario) => scenarioFolder(scenario.file, scenario.sharesFile ? scenario.test.title : undefined);

const failedWrite = (dir: string) => (error: unknown) =>
  new ReportWriteFailed({ dir, detail: error instanceof Error ? error.message : String(error) });

/** Writes one scenario's report into its folder and returns its summary row. */
const writeScenarioReport = (
  options: ProveOptions,
  run: Run,
  known: Known,
  scenario: ListedScenario,
  evidence: ReturnType<typeof sideEvidence>,
) =>
  Effect.gen(function* () {
    const folder = folderOf(scenario);
    const dir = join(run.outDir(known), folder);
    const totalMs = yield* run.elapsed;
    const steps = yield* run.timed;
    const grep = scenario.sharesFile ? scenario.test.title : undefined;
    const report = yield* Effect.tryPromise({
      try: () =>
        writeReport({
          dir,
          root: run.root(known),
          decision: decideScenario(options, evidence),
          scenario: { file: scenario.file, title: scenario.test.title, sha256: scenario.sha256 },
          base: evidence.base,
          head: evidence.head,
          totalMs,
          steps,
          command: run.reproduce(known, { ...options, scenarios: [scenario.path], grep }),
          secrets: run.secrets,
          paths: run.paths(known),
        }),
      catch: failedWrite(dir),
    });
    const { verdict, exitCode, reasonCode, reason, redactions } = report;
    return {
      file: scenario.file,
      title: scenario.test.title,
      verdict,
      exitCode,
      reasonCode,
      reason,
      dir: folder,
      report: `${folder}/${report.markdown}`,
      redactions,
    } satisfies SummaryRow;
  });

/** Writes summary.json and summary.md for the rows, or for a proof that stopped before any (`stopped` says why). */
const summarize = (options: ProveOptions, run: Run, known: Known, rows: ReadonlyArray<SummaryRow>, stopped?: string) =>
  Effect.gen(function* () {
    const dir = run.outDir(known);
    const totalMs = yield* run.elapsed;
    const sorted = sortRows(rows);
    const verdict =
      stopped === undefined
        ? overall(sorted)
        : { ...overall(sorted), verdict: "could-not-run" as const, exitCode: 2 as const, reason: stopped };
    const summary: ProofSummary = {
      schema: "scenario-proof-summary/v1",
      ...verdict,
      reason: redact(verdict.reason, run.secrets),
      base: summaryCommit(options.base, known.base),
      head: summaryCommit(options.head, known.head),
      shard: options.shard ?? null,
      scenarios: sorted,
      markdown: "summary.md",
      timings: { totalMs: Math.round(totalMs) },
      // Sorted, so a shard's summary names them as the whole proof's does, whatever order they were typed in.
      command: redact(run.reproduce(known, { ...options, scenarios: [...options.scenarios].sort() }), run.secrets),
    };
    yield* Effect.tryPromise({ try: () => writeSummary(dir, summary), catch: failedWrite(dir) });
    return summary;
  });

/** The proof of several scenarios: one worktree, install and build per side, every scenario run against it. */
const pipeline = (options: ProveOptions, run: Run) =>
  Effect.gen(function* () {
    const progress = yield* Progress;
    const place = yield* findManyPlace(options, run.cwd);
    yield* run.learn({ place });
    const [base, head] = yield* resolveRefs(options, place.repo);
    yield* run.learn({ base, head });
    yield* run.claim;
    const all = yield* listedWithImages(loadScenarios(options, place));
    const mine = shardSlice(all, options.shard);
    const shard = options.shard === undefined ? "" : ` in shard ${options.shard.index}/${options.shard.total}`;
    const names = mine.map((scenario) => folderOf(scenario)).join(", ") || "none";
    yield* progress.line(`${mine.length} of ${all.length} scenario${all.length === 1 ? "" : "s"}${shard}: ${names}`);
    const [first, ...rest] = mine;
    if (first === undefined) return yield* summarize(options, run, yield* Ref.get(run.facts), []);

    const runDir = yield* runFolder(place.repo, options.keep);
    yield* run.learn({ runDir });
    const context = sideContext({ place, scenarios: [first, ...rest], runDir, cwd: run.cwd, keep: options.keep, repeat: options.repeat });
    const [baseSide, headSide] = yield* bothSides(options, base, head, context);
    const known = yield* Ref.get(run.facts);
    const reports = Effect.gen(function* () {
      const rows: SummaryRow[] = [];
      for (const [index, scenario] of mine.entries()) {
        rows.push(yield* writeScenarioReport(options, run, known, scenario, sideEvidence(baseSide, headSide, index)));
      }
      return yield* summarize(options, run, known, rows);
    });
    // Whole or not at all, as a single proof's report: a stop writes its summary after this one.
    return yield* progress.step(
      { step: "report", detail: `${mine.length} scenario${mine.length === 1 ? "" : "s"}` },
      Effect.uninterruptible(reports),
    );
  });

/**
 * Proves several scenarios (files, folders, or a shard of them) at base and head: each gets its
 * own report folder and verdict, and summary.md/summary.json sum them up. Exit code: the worst row's.
 */
export function manySpec(options: ProveOptions, cwd: string, secrets: ReadonlyArray<Replacement>): Spec<ProofSummary, StopError> {
  return {
    cwd,
    secrets,
    out: options.out,
    repo: options.repo,
    defaultOut: (known, root) => defaultManyOutDir(root, options, known.base?.sha, known.head?.sha),
    pipeline: (run) => pipeline(options, run),
    why: couldNotRun,
    stopped: (why) => (run, known) => summarize(options, run, known, [], why.message),
  };
}

export const proveMany = (
  options: ProveOptions,
  cwd: string,
  secrets: ReadonlyArray<Replacement>,
  interrupt: Effect.Effect<never, Interrupted>,
) => runSpec(manySpec(options, cwd, secrets), interrupt);

/** Whether a proof's scenarios make it one of several: more than one path, a folder, or a shard. */
export function isMany(options: ProveOptions, isFolder: (path: string) => boolean): boolean {
  return options.scenarios.length > 1 || options.shard !== undefined || isFolder(options.scenario);
}

/** Each scenario's verdict, the overall one, then the summary's path: also a merge's last lines. */
export const summaryPresenter: Presenter<ProofSummary> = {
  lines: (summary, file) => [
    ...summary.scenarios.map((row) => `${row.verdict.padEnd(13)} ${row.file}${row.title === null ? "" : ` › ${row.title}`}`),
    `${summary.verdict} (exit ${summary.exitCode}): ${summary.reason}`,
    `summary: ${file}`,
  ],
  verdict: (summary) => summary.verdict,
};
