import * as Effect from "effect/Effect";
import type { RunOptions } from "../options/index.ts";
import { runWithServices, withSignals } from "../engine/terminal.ts";
import { couldNotRun, type Interrupted, type StopError } from "../errors.ts";
import { Git } from "../git/git.ts";
import type { AttemptError } from "../outcome/types.ts";
import { describeError } from "../outcome/verdict.ts";
import { Progress } from "../progress/progress.ts";
import { findWorkplace, loadScenario } from "../engine/scenario.ts";
import { runSide, sideContext } from "../engine/side.ts";
import { runFolder } from "../engine/steps.ts";

/** `git bisect run` exit codes: good, bad, and skip this commit. */
export type BisectExitCode = 0 | 1 | 125;

/**
 * The run's whole error when the summary's one line leaves some of it out (the app's output under a
 * boot error, an assertion's expected and received): `run --at` writes no report, and its run
 * folder, the server's log in it, is removed when it ends.
 */
function errorInFull(error: AttemptError | undefined): string | undefined {
  const message = error?.message.trim() ?? "";
  if (error === undefined || !message.includes("\n")) return undefined;
  const where = error.location === undefined ? "" : ` at ${error.location}`;
  return [`${error.kind}${where}:`, ...message.split("\n").map((line) => `  ${line}`.trimEnd())].join("\n");
}

const oneSide = Effect.fn("RunAt.pipeline")(function* (options: RunOptions, cwd: string) {
  const git = yield* Git;
  const progress = yield* Progress;
  const place = yield* findWorkplace(options, cwd);
  const commit = yield* progress.step({ step: "refs", detail: options.at }, git.resolveCommit(place.repo, options.at, "--at"));
  const scenario = yield* loadScenario(options, place);
  const runDir = yield* runFolder(place.repo, options.keep);
  const side = yield* runSide(
    "at",
    options.at,
    commit,
    sideContext({ place, scenarios: [scenario], runDir, cwd, keep: options.keep, repeat: 1 }),
  );
  const attempt = side.attempts[0]?.[0]?.attempt;
  const code: BisectExitCode = attempt?.outcome === "passed" ? 0 : attempt?.outcome === "failed" ? 1 : 125;
  const summary = attempt?.outcome === "passed" ? "passed" : `${attempt?.outcome ?? "error"}: ${describeError(attempt?.error)}`;
  const detail = errorInFull(attempt?.error);
  if (detail !== undefined) yield* progress.line(detail);
  yield* progress.line(`${commit.sha.slice(0, 7)} ${summary} (exit ${code})`);
  return code;
});

/** One side for `git bisect run`: 0 when the scenario passes at the ref, 1 when it fails, 125 when it cannot run. */
export const runAt = Effect.fn("RunAt.run")(function* (options: RunOptions, cwd: string, interrupt: Effect.Effect<never, Interrupted>) {
  const progress = yield* Progress;
  return yield* Effect.raceFirst(Effect.scoped(oneSide(options, cwd)), interrupt).pipe(
    Effect.catch((error: StopError) => progress.line(couldNotRun(error).message).pipe(Effect.as<BisectExitCode>(125))),
  );
});

/** `run --at`: one side for `git bisect run`; 125 when it could not run. */
export const runOneSideAt = (options: RunOptions, cwd: string): Promise<number> =>
  withSignals((signals) => runWithServices(runAt(options, cwd, signals.interrupt)), 125);
