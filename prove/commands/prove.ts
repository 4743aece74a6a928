import { existsSync, statSync } from "node:fs";
import { relative, resolve } from "node:path";
import * as Effect from "effect/Effect";
import * as Ref from "effect/Ref";
import type { ProveOptions } from "../options/index.ts";
import { ReportWriteFailed, couldNotRun, type Interrupted, type StopError } from "../errors.ts";
import type { Commit } from "../git/git.ts";
import { runSpec, type Presenter, type Run, type Spec } from "../engine/run.ts";
import { reported } from "../engine/terminal.ts";
import { secrets as envSecrets } from "../progress/output.ts";
import { isMany, proveMany, summaryPresenter } from "./prove-many.ts";
import { reportedScenario, type Known } from "../engine/known.ts";
import { oneScenarioSides } from "../engine/steps.ts";
import { decideScenario } from "../outcome/decide-scenario.ts";
import type { Decision } from "../outcome/verdict.ts";
import { defaultOutDir } from "../report/folders.ts";
import { Progress } from "../progress/progress.ts";
import type { SideEvidence } from "../report/evidence.ts";
import type { Replacement } from "../report/redact.ts";
import type { ProofReport } from "../report/schema.ts";
import { writeReport } from "../report/write-report.ts";
import type { PerformanceInput } from "../report/performance.ts";
import { decidePerf, perfEvidence } from "../perf/decision.ts";
import { perfRequest } from "../perf/request.ts";
import { sampleSides } from "../engine/sample.ts";
import { writeErr } from "../progress/output.ts";

const write = (
  options: ProveOptions,
  reproduce: string | undefined,
  run: Run,
  known: Known,
  decision: Decision,
  sides: { readonly base: SideEvidence; readonly head: SideEvidence },
  performance?: PerformanceInput,
) =>
  Effect.gen(function* () {
    const dir = run.outDir(known);
    const totalMs = yield* run.elapsed;
    const steps = yield* run.timed;
    return yield* Effect.tryPromise({
      try: () =>
        writeReport({
          dir,
          root: run.root(known),
          decision,
          scenario: reportedScenario(known, options.scenario),
          base: sides.base,
          head: sides.head,
          totalMs,
          steps,
          command: reproduce ?? run.reproduce(known, options),
          secrets: run.secrets,
          paths: run.paths(known),
          ...(performance === undefined ? {} : { performance }),
        }),
      catch: (error) => new ReportWriteFailed({ dir, detail: error instanceof Error ? error.message : String(error) }),
    });
  });

const unrun = (ref: string, commit: Commit | undefined): SideEvidence => ({ ref, commit, attempts: [] });

/**
 * A proof of one scenario: both sides, a verdict, and report.md. `reproduce` replaces the report's
 * reproduce command when the proof's own command line cannot be run again (a demo's sandbox is gone).
 */
export function proofSpec(
  options: ProveOptions,
  cwd: string,
  secrets: ReadonlyArray<Replacement>,
  reproduce?: string,
): Spec<ProofReport, StopError> {
  return {
    cwd,
    secrets,
    out: options.out,
    repo: options.repo,
    defaultOut: (known, root) =>
      defaultOutDir(
        root,
        known.scenario?.file ?? relative(root, resolve(cwd, options.scenario)),
        options,
        known.base?.sha,
        known.head?.sha,
      ),
    pipeline: (run) =>
      Effect.gen(function* () {
        const progress = yield* Progress;
        const request = perfRequest(options);
        if (request !== undefined) {
          const sampled = yield* sampleSides(run, options, request);
          const known = yield* Ref.get(run.facts);
          const decision = decidePerf(request, options, sampled);
          return yield* progress.step(
            { step: "report" },
            Effect.uninterruptible(write(options, reproduce, run, known, decision, perfEvidence(sampled), { request, sampled })),
          );
        }
        const evidence = yield* oneScenarioSides(run, options, options.repeat);
        const known = yield* Ref.get(run.facts);
        // Whole or not at all: a stop waits for the report, then writes the interrupted one over it.
        return yield* progress.step(
          { step: "report" },
          Effect.uninterruptible(write(options, reproduce, run, known, decideScenario(options, evidence), evidence)),
        );
      }),
    why: couldNotRun,
    stopped: (why) => (run, known) =>
      write(
        options,
        reproduce,
        run,
        known,
        { verdict: "could-not-run", exitCode: 2, reasonCode: why.reasonCode, reason: why.message },
        { base: unrun(options.base, known.base), head: unrun(options.head, known.head) },
      ),
  };
}

/** Proves a fix: the scenario at base and at head, a verdict, and the report; stopped by `interrupt`. */
export const proveScenario = (
  options: ProveOptions,
  cwd: string,
  secrets: ReadonlyArray<Replacement>,
  interrupt: Effect.Effect<never, Interrupted>,
  reproduce?: string,
) => runSpec(proofSpec(options, cwd, secrets, reproduce), interrupt);

/** The verdict, then the report's path. */
export const proofPresenter: Presenter<ProofReport> = {
  lines: (report, file) => [`${report.verdict} (exit ${report.exitCode}, ${report.reasonCode}): ${report.reason}`, `report: ${file}`],
  verdict: (report) => report.verdict,
};

/** A proof: of several scenarios (several paths, a folder or a shard) with a summary, else of one. */
export function prove(options: ProveOptions, cwd: string): Promise<number> {
  const isFolder = (path: string) => existsSync(resolve(cwd, path)) && statSync(resolve(cwd, path)).isDirectory();
  const perf = perfRequest(options);
  if (perf !== undefined && isMany(options, isFolder)) {
    writeErr(
      `${perf.mode === "faster" ? "--faster" : "--not-slower"} proves one scenario, and ${options.scenario} is a folder; name one scenario file in it (and --grep for one test).`,
    );
    return Promise.resolve(2);
  }
  return isMany(options, isFolder)
    ? reported((interrupt) => proveMany(options, cwd, envSecrets, interrupt), options, summaryPresenter, cwd)
    : reported((interrupt) => proveScenario(options, cwd, envSecrets, interrupt), options, proofPresenter, cwd);
}
