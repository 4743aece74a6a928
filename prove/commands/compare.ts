import { relative, resolve } from "node:path";
import * as Effect from "effect/Effect";
import * as Ref from "effect/Ref";
import type { CompareOptions } from "../options/index.ts";
import { compareReasonCodes, type CompareReport } from "../compare/schema.ts";
import type { CompareOutcome } from "../compare/outcome.ts";
import { writeCompare } from "../compare/write-compare.ts";
import { ReportWriteFailed, couldNotRun, type Interrupted, type StopError } from "../errors.ts";
import type { Commit } from "../git/git.ts";
import { runSpec, type Presenter, type Run, type Spec } from "../engine/run.ts";
import { reported } from "../engine/terminal.ts";
import { secrets as envSecrets } from "../progress/output.ts";
import { reportedScenario, type Known } from "../engine/known.ts";
import { oneScenarioSides } from "../engine/steps.ts";
import { quote } from "../engine/paths.ts";
import { defaultOutDir } from "../report/folders.ts";
import { Progress } from "../progress/progress.ts";
import type { SideEvidence } from "../report/evidence.ts";
import type { Replacement } from "../report/redact.ts";

/** The command that runs this comparison again from the checkout's root, pinned to the commits it compared. */
const command = (options: CompareOptions, run: Run, known: Known) => {
  const again = run.reproduce(known, { ...options, scenarios: [options.scenario], repeat: 1 }, " compare");
  return options.threshold === undefined ? again : `${again} --threshold ${quote(String(options.threshold))}`;
};

const write = (
  options: CompareOptions,
  run: Run,
  known: Known,
  sides: { readonly base: SideEvidence; readonly head: SideEvidence },
  stopped?: CompareOutcome,
) =>
  Effect.gen(function* () {
    const dir = run.outDir(known);
    const totalMs = yield* run.elapsed;
    return yield* Effect.tryPromise({
      try: () =>
        writeCompare({
          dir,
          root: run.root(known),
          scenario: reportedScenario(known, options.scenario),
          base: sides.base,
          head: sides.head,
          threshold: options.threshold,
          totalMs,
          command: command(options, run, known),
          secrets: run.secrets,
          paths: run.paths(known),
          ...(stopped === undefined ? {} : { stopped }),
        }),
      catch: (error) => new ReportWriteFailed({ dir, detail: error instanceof Error ? error.message : String(error) }),
    });
  });

const unrun = (ref: string, commit: Commit | undefined): SideEvidence => ({ ref, commit, attempts: [] });

/**
 * `compare`: the scenario at base and at head, and for every screenshot label both reached a
 * difference image and whether it changed. Exit 0 when it ran, whatever changed; 2 when it could
 * not. Its report folder is beside the proof of the same commits: `<base7>-<head7>-compare`.
 */
export function compareSpec(options: CompareOptions, cwd: string, secrets: ReadonlyArray<Replacement>): Spec<CompareReport, StopError> {
  return {
    cwd,
    secrets,
    out: options.out,
    repo: options.repo,
    defaultOut: (known, root) => {
      const scenario = known.scenario?.file ?? relative(root, resolve(cwd, options.scenario));
      return `${defaultOutDir(root, scenario, options, known.base?.sha, known.head?.sha)}-compare`;
    },
    pipeline: (run) =>
      Effect.gen(function* () {
        const progress = yield* Progress;
        const evidence = yield* oneScenarioSides(run, options, 1);
        const known = yield* Ref.get(run.facts);
        return yield* progress.step(
          { step: "report", detail: "differences" },
          Effect.uninterruptible(write(options, run, known, evidence)),
        );
      }),
    why: couldNotRun,
    stopped: (why) => {
      const reasonCode = compareReasonCodes.find((code) => code === why.reasonCode);
      if (reasonCode === undefined) return undefined;
      return (run, known) =>
        write(
          options,
          run,
          known,
          { base: unrun(options.base, known.base), head: unrun(options.head, known.head) },
          { exitCode: 2, reasonCode, reason: why.message },
        );
    },
  };
}

export const compareScenario = (
  options: CompareOptions,
  cwd: string,
  secrets: ReadonlyArray<Replacement>,
  interrupt: Effect.Effect<never, Interrupted>,
) => runSpec(compareSpec(options, cwd, secrets), interrupt);

/** The summary, then compare.md's path. */
export const comparePresenter: Presenter<CompareReport> = {
  lines: (report, file) => [
    report.exitCode === 0
      ? `compared (exit 0): ${report.reason}`
      : `could not run (exit ${report.exitCode}, ${report.reasonCode}): ${report.reason}`,
    `compare: ${file}`,
  ],
  verdict: (report) => report.reasonCode,
};

/** `compare`: compare.json on stdout with --json; published when asked. */
export const compare = (options: CompareOptions, cwd: string) =>
  reported((interrupt) => compareScenario(options, cwd, envSecrets, interrupt), options, comparePresenter, cwd);
