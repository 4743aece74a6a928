import * as Effect from "effect/Effect";
import type { BisectOptions } from "../options/index.ts";
import { candidateCommits, type CommitsError } from "../bisect/commits.ts";
import { bisection } from "../bisect/find.ts";
import { settledSkip } from "../bisect/outcome.ts";
import { bisectCommand, defaultBisectDir } from "../bisect/paths.ts";
import { writeBisectReport } from "../bisect/report.ts";
import { makeInstalls } from "../bisect/run-commit.ts";
import type { BisectReport } from "../bisect/schema.ts";
import { runSpec, type Presenter, type Spec } from "../engine/run.ts";
import { reported } from "../engine/terminal.ts";
import { secrets as envSecrets } from "../progress/output.ts";
import { runFolder } from "../engine/steps.ts";
import { Interrupted, ReportWriteFailed, type StopError } from "../errors.ts";
import { Git } from "../git/git.ts";
import { proverCommand } from "../engine/paths.ts";
import { findWorkplace, loadScenario } from "../engine/scenario.ts";
import { sideContext } from "../engine/side.ts";
import { Progress } from "../progress/progress.ts";
import type { Replacement } from "../report/redact.ts";
import { listedWithImages } from "../report/sharp.ts";

type BisectStop = StopError | CommitsError;

const stopMessage = (error: BisectStop) =>
  error instanceof Interrupted
    ? `Interrupted by ${error.signal}; worktrees and temporary files were removed. Run the bisection again to get an answer.`
    : error.message;

/**
 * `bisect`: runs the scenario at --old and --new, then searches the commits between them for the
 * first whose outcome differs from old's, each in a temporary worktree, and writes bisect.md and
 * bisect.json. A bisection stopped early writes no report.
 */
export function bisectSpec(options: BisectOptions, cwd: string, secrets: ReadonlyArray<Replacement>): Spec<BisectReport, BisectStop> {
  return {
    cwd,
    secrets,
    out: options.out,
    repo: options.repo,
    defaultOut: (known, root) =>
      defaultBisectDir(root, known.scenario?.file ?? options.scenario, options.grep, known.base?.sha ?? "", known.head?.sha ?? ""),
    why: (error) => ({ exitCode: 2, reasonCode: undefined, message: stopMessage(error) }),
    pipeline: (run) =>
      Effect.gen(function* () {
        const git = yield* Git;
        const progress = yield* Progress;
        const place = yield* findWorkplace(options, cwd);
        yield* run.learn({ place });
        const [old, neu] = yield* progress.step(
          { step: "refs", detail: `${options.old}..${options.new}` },
          Effect.all([git.resolveCommit(place.repo, options.old, "--old"), git.resolveCommit(place.repo, options.new, "--new")]),
        );
        // The report folder is named by the two ends, as a proof's by base and head.
        yield* run.learn({ base: old, head: neu });
        const commits = yield* candidateCommits({
          repo: place.repo,
          old: { ref: options.old, sha: old.sha },
          new: { ref: options.new, sha: neu.sha },
        });
        const scenario = yield* listedWithImages(loadScenario(options, place));
        yield* run.learn({ scenario });
        const known = yield* run.claim;
        const runDir = yield* runFolder(place.repo, options.keep);
        yield* run.learn({ runDir });
        const context = {
          ...sideContext({ place, scenarios: [scenario], runDir, cwd, keep: options.keep, repeat: options.repeat }),
          settled: settledSkip,
        };
        const installs = yield* makeInstalls;
        const { facts, pair } = yield* bisection({
          options,
          place,
          scenario,
          old,
          new: neu,
          commits,
          context,
          installs,
          elapsed: run.elapsed,
        });
        const dir = run.outDir(known);
        const command = bisectCommand(
          options,
          { cwd, root: place.root, prover: proverCommand(place.root), configFile: place.configFile },
          { old: old.sha, new: neu.sha, repo: place.repo },
        );
        const paths = run.paths({ ...known, runDir });
        const write = Effect.tryPromise({
          try: () => writeBisectReport({ dir, root: place.root, facts, pair, command, secrets, paths }),
          catch: (error) => new ReportWriteFailed({ dir, detail: error instanceof Error ? error.message : String(error) }),
        });
        return yield* progress.step({ step: "report" }, Effect.uninterruptible(write));
      }),
  };
}

export const bisectScenario = (
  options: BisectOptions,
  cwd: string,
  secrets: ReadonlyArray<Replacement>,
  interrupt: Effect.Effect<never, Interrupted>,
) => runSpec(bisectSpec(options, cwd, secrets), interrupt);

/** The answer, then bisect.md's path. */
export const bisectPresenter: Presenter<BisectReport> = {
  lines: (report, file) => [`${report.result} (exit ${report.exitCode}): ${report.reason}`, `bisect: ${file}`],
  verdict: (report) => report.result,
};

/** `bisect`: bisect.json on stdout with --json; published when asked. */
export const bisect = (options: BisectOptions, cwd: string) =>
  reported((interrupt) => bisectScenario(options, cwd, envSecrets, interrupt), options, bisectPresenter, cwd);
