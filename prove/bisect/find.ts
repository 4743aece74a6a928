import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import type { BisectOptions } from "../options/index.ts";
import { Git, type Commit } from "../git/git.ts";
import { isShaOf } from "../outcome/ref-label.ts";
import type { Scenario, Workplace } from "../engine/scenario.ts";
import type { SharedInstall, SideContext } from "../engine/side.ts";
import { Progress } from "../progress/progress.ts";
import { commitDetails, type CommitDetails } from "./commits.ts";
import { type BisectFacts, type RunEvidence } from "./report.ts";
import { settle, startRun, type CommitRun, type Installs } from "./run-commit.ts";
import type { BisectEnd, BisectStep, Direction } from "./schema.ts";
import { describeStep, findFirstChange, maxSteps, type PassOrFail, type SearchResult, type StepProgress } from "./search.ts";

/** Where a bisection runs and what it knows once both ends are resolved. */
export interface Setting {
  readonly options: BisectOptions;
  readonly place: Workplace;
  readonly scenario: Scenario;
  readonly old: Commit;
  readonly new: Commit;
  /** The commits after old up to new, oldest first. */
  readonly commits: ReadonlyArray<string>;
  readonly context: SideContext;
  readonly installs: Installs;
  /** Milliseconds since the bisection started. */
  readonly elapsed: Effect.Effect<number>;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
const short = (sha: string) => sha.slice(0, 7);
/** An end as a sentence names it: "--old v1.2 (1a2b3c4)", or "--old 1a2b3c4" when a SHA was typed. */
const endName = (flag: "old" | "new", ref: string, sha: string) =>
  isShaOf(ref, sha) ? `--${flag} ${short(sha)}` : `--${flag} ${ref} (${short(sha)})`;
const verb = (outcome: PassOrFail) => (outcome === "pass" ? "passes" : "fails");

/** An end's outcome in the report: `error` or `flaky` when its runs gave none. */
const endOutcome = (run: CommitRun): BisectEnd["outcome"] =>
  run.judged.outcome !== "skip" ? run.judged.outcome : run.judged.flaky ? "flaky" : "error";

const attemptsOf = (run: CommitRun) => (run.result.attempts[0] ?? []).map((classified) => classified.attempt);
const evidence = (run: CommitRun, commit: CommitDetails): RunEvidence => ({ commit, attempts: run.result.attempts[0] ?? [] });

/** Both ends at once, as a proof's two sides: when their dependency manifests are the same, old installs and new hard-links it. */
const runEnds = Effect.fn("Bisect.ends")(function* (setting: Setting) {
  const git = yield* Git;
  const { context, installs, options } = setting;
  const same = yield* git.sameDependencies(context.repo, setting.old.sha, setting.new.sha);
  const shared: SharedInstall | undefined = same ? { by: "old", installed: yield* Deferred.make<string, void>() } : undefined;
  const [old, neu] = yield* Effect.all(
    [
      startRun("old", options.old, setting.old, context, installs, shared),
      startRun("new", options.new, setting.new, context, installs, shared),
    ],
    { concurrency: 2 },
  );
  yield* settle(old, context, installs);
  yield* settle(neu, context, installs);
  return [old.run, neu.run] as const;
});

/** Why a bisection cannot start from these ends: each end that gave no outcome, and why. */
function endsReason(ends: ReadonlyArray<{ readonly name: string; readonly run: CommitRun }>): string {
  const problems = ends.flatMap(({ name, run }) =>
    run.judged.outcome === "skip"
      ? [`The scenario gave no outcome at ${name}: ${(run.judged.why ?? "no run was made").replace(/\.?$/, ".")}`]
      : [],
  );
  return `${problems.join(" ")} A bisection needs the scenario's outcome at both ends: make it run there, or pass as that end a commit where it does.`;
}

/** Finds the first commit whose outcome differs from old's, probing in worktrees; records each step. */
const search = Effect.fn("Bisect.search")(function* (
  setting: Setting,
  oldOutcome: PassOrFail,
  newOutcome: PassOrFail,
  runs: Map<string, CommitRun>,
  known: Map<string, CommitDetails>,
) {
  const progress = yield* Progress;
  const { place, context, installs } = setting;
  const steps: BisectStep[] = [];
  let count = 0;
  const probe = (sha: string) =>
    Effect.gen(function* () {
      count += 1;
      const [details] = yield* commitDetails(place.repo, [sha]);
      const commit = details ?? { sha, subject: "", author: "", date: "" };
      known.set(sha, commit);
      const started = yield* startRun(`step${count}`, sha, { sha, subject: commit.subject }, context, installs);
      yield* settle(started, context, installs);
      runs.set(sha, started.run);
      return started.run.judged.outcome;
    });
  const onStep = (step: StepProgress) =>
    Effect.gen(function* () {
      const run = runs.get(step.sha);
      const commit = known.get(step.sha) ?? { sha: step.sha, subject: "", author: "", date: "" };
      const why = run?.judged.why ?? null;
      steps.push({
        ...commit,
        step: step.step,
        outcome: step.outcome,
        why,
        attempts: run === undefined ? [] : attemptsOf(run),
        commitsLeft: step.commitsLeft,
        stepsLeft: step.stepsLeft,
      });
      yield* progress.line(`${describeStep(step)}: ${commit.subject}${why === null ? "" : ` (${why})`}`);
    });
  const result = yield* findFirstChange({ old: setting.old.sha, commits: setting.commits, oldOutcome, newOutcome, probe, onStep });
  return { result, steps };
});

/** The answer of a search as the report states it. */
function answer(
  setting: Setting,
  result: SearchResult,
  outcomes: { readonly old: PassOrFail; readonly new: PassOrFail },
  details: (sha: string) => CommitDetails,
) {
  const changed = outcomes.old === "pass" ? "introduced the failure" : "fixed it";
  const lastOld = details(result.lastOld);
  if (result.kind === "found") {
    const commit = details(result.first);
    const reason =
      `${short(commit.sha)} "${commit.subject}" by ${commit.author} (${commit.date}) ${changed}: the scenario ${verb(outcomes.old)} ` +
      `at ${short(lastOld.sha)}, the commit before it, and ${verb(outcomes.new)} at ${short(commit.sha)}.`;
    return { result: "found" as const, exitCode: 0 as const, commit, candidates: [commit], reason, firstNew: result.first };
  }
  const candidates = result.candidates.map(details);
  const last = candidates.at(-1)?.sha ?? setting.new.sha;
  const unknown = candidates.slice(0, -1).map((commit) => short(commit.sha));
  const reason =
    `One of ${plural(candidates.length, "commit")} ${changed}: ${candidates.map((commit) => short(commit.sha)).join(", ")}. ` +
    `The scenario ${verb(outcomes.old)} at ${short(lastOld.sha)} and ${verb(outcomes.new)} at ${short(last)}, but could not run at ${unknown.join(", ")} ` +
    "between them (see the skipped commits for why), so the search cannot tell which.";
  return { result: "range" as const, exitCode: 2 as const, commit: null, candidates, reason, firstNew: last };
}

/**
 * Runs both ends, then searches the commits between them for the first whose outcome differs from
 * old's; returns the report's facts and the pair of commits whose screenshots it shows.
 */
export const bisection = Effect.fn("Bisect.find")(function* (setting: Setting) {
  const { options, place, scenario, commits } = setting;
  const old = setting.old;
  const neu = setting.new;
  const progress = yield* Progress;
  const oldName = endName("old", options.old, old.sha);
  const newName = endName("new", options.new, neu.sha);
  const plan =
    commits.length === 1
      ? "the only one is --new, so both ends are all there is to run"
      : `both ends run first, then at most ${plural(maxSteps(commits.length, 0), "step")} and one per skipped commit`;
  yield* progress.line(`bisect: ${plural(commits.length, "commit")} after ${oldName} up to ${newName}; ${plan}`);

  const [oldRun, newRun] = yield* runEnds(setting);
  const [oldDetails, newDetails] = yield* commitDetails(place.repo, [old.sha, neu.sha]);
  const known = new Map<string, CommitDetails>(
    [oldDetails, newDetails].flatMap((details) => (details === undefined ? [] : [[details.sha, details] as const])),
  );
  const details = (sha: string): CommitDetails => known.get(sha) ?? { sha, subject: "", author: "", date: "" };
  const endOf = (ref: string, run: CommitRun, sha: string): BisectEnd => ({
    ...details(sha),
    ref,
    outcome: endOutcome(run),
    why: run.judged.why,
    attempts: attemptsOf(run),
  });
  const ends = { old: endOf(options.old, oldRun, old.sha), new: endOf(options.new, newRun, neu.sha) };
  /** The report's facts in the order bisect.json lists them. */
  const factsOf = (
    verdict: Pick<BisectFacts, "result" | "exitCode" | "direction" | "reason">,
    found: Pick<BisectFacts, "commit" | "lastOld" | "candidates" | "steps" | "skipped">,
  ) =>
    setting.elapsed.pipe(
      Effect.map((totalMs): BisectFacts => ({
        schema: "scenario-bisect/v1",
        ...verdict,
        scenario: { file: scenario.file, title: scenario.test.title, sha256: scenario.sha256 },
        ...ends,
        commit: found.commit,
        lastOld: found.lastOld,
        candidates: found.candidates,
        commits: commits.length,
        maxSteps: maxSteps(commits.length, found.skipped.length),
        repeat: options.repeat,
        steps: found.steps,
        skipped: found.skipped,
        timings: { totalMs: Math.round(totalMs) },
      })),
    );
  const nothingFound = { commit: null, lastOld: null, candidates: [], steps: [], skipped: [] };

  const oldOutcome = oldRun.judged.outcome;
  const newOutcome = newRun.judged.outcome;
  if (oldOutcome === "skip" || newOutcome === "skip") {
    const reason = endsReason([
      { name: oldName, run: oldRun },
      { name: newName, run: newRun },
    ]);
    return { facts: yield* factsOf({ result: "could-not-run", exitCode: 2, direction: null, reason }, nothingFound), pair: undefined };
  }
  yield* progress.line(`bisect: the scenario ${verb(oldOutcome)} at ${oldName} and ${verb(newOutcome)} at ${newName}`);
  if (oldOutcome === newOutcome) {
    const reason =
      `The scenario ${verb(oldOutcome)} at both ends, ${oldName} and ${newName}, so there is no change to find between them. ` +
      (oldOutcome === "pass"
        ? "To find the commit that broke it, pass as --new a commit where it fails."
        : "To find the commit that broke it, pass as --old an earlier commit where it passes; to find one that fixed it, pass as --new a commit where it passes.");
    return { facts: yield* factsOf({ result: "unchanged", exitCode: 1, direction: null, reason }, nothingFound), pair: undefined };
  }

  const direction: Direction = oldOutcome === "pass" ? "introduced" : "fixed";
  const outcomes = { old: oldOutcome, new: newOutcome };
  const runs = new Map<string, CommitRun>([
    [old.sha, oldRun],
    [neu.sha, newRun],
  ]);
  const { result, steps } = yield* search(setting, oldOutcome, newOutcome, runs, known);
  const found = answer(setting, result, outcomes, details);
  const skipped = result.skipped.map((sha) => ({ ...details(sha), why: runs.get(sha)?.judged.why ?? "could not run" }));
  const lastOldRun = runs.get(result.lastOld);
  const firstNewRun = runs.get(found.firstNew);
  const pair =
    lastOldRun === undefined || firstNewRun === undefined
      ? undefined
      : { lastOld: evidence(lastOldRun, details(result.lastOld)), firstNew: evidence(firstNewRun, details(found.firstNew)) };
  const facts = yield* factsOf(
    { result: found.result, exitCode: found.exitCode, direction, reason: found.reason },
    { commit: found.commit, lastOld: details(result.lastOld), candidates: found.candidates, steps, skipped },
  );
  return { facts, pair };
});
