import { dirname, relative } from "node:path";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Result from "effect/Result";
import type { PublishTarget } from "../options/index.ts";
import { Interrupted } from "../errors.ts";
import type { Git } from "../git/git.ts";
import { GitLive } from "../git/git-live.ts";
import type { Progress } from "../progress/progress.ts";
import { progressLayer } from "../progress/progress-live.ts";
import { writeErr, writeOut } from "../progress/output.ts";
import { githubFiles, publishFolder, type Finished } from "./finish.ts";
import type { Presenter, Ran } from "./run.ts";

/**
 * Turns SIGINT and SIGTERM into an Interrupted failure for the pipeline. The handlers stay
 * installed until the command ends, so a second Ctrl-C cannot cut the cleanup short.
 */
export function watchSignals() {
  const stop = Deferred.makeUnsafe<never, Interrupted>();
  let interrupted = false;
  const handler = (signal: NodeJS.Signals) => {
    interrupted = true;
    if (Deferred.doneUnsafe(stop, Effect.fail(new Interrupted({ signal }))))
      writeErr(`${signal}: stopping, removing worktrees and temporary files…`);
    else writeErr(`${signal}: still cleaning up, one moment…`);
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    interrupt: Deferred.await(stop),
    interrupted: () => interrupted,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}

/** The services every command runs with: git, and progress on stderr. */
const layer = Layer.mergeAll(GitLive, progressLayer(writeErr));

/** Runs an effect of the pipeline with the services every command has. */
export const runWithServices = <A>(effect: Effect.Effect<A, never, Git | Progress>): Promise<A> =>
  Effect.runPromise(effect.pipe(Effect.provide(layer)));

export type Signals = ReturnType<typeof watchSignals>;

/** Runs a command's body with SIGINT and SIGTERM watched; a bug in the prover is printed and exits with `unexpected`. */
export async function withSignals(body: (signals: Signals) => Promise<number>, unexpected = 2): Promise<number> {
  const signals = watchSignals();
  try {
    return await body(signals);
  } catch (error) {
    printUnexpected(error);
    return unexpected;
  } finally {
    signals.dispose();
  }
}

// A bug in the prover, not a verdict: never let it read as exit 1 (not proved).
export function printUnexpected(error: unknown): void {
  writeErr(
    `prove-scenario failed unexpectedly; worktrees and temporary files were released. Please report this:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
}

/** A command's last lines: its report's, or why it could not run. */
export function printRan<R>(result: Ran<R>, present: Presenter<R>): void {
  if (result.report === undefined || result.reportFile === undefined)
    writeErr(`could not run (exit ${result.exitCode}): ${result.message ?? ""}`);
  else for (const line of present.lines(result.report, result.reportFile)) writeErr(line);
}

/**
 * After a proof or a merge (`again`: say how to publish later), or for `publish`: publishes when
 * asked, then writes GitHub Actions' step summary and outputs when running there. Returns 0, or 2
 * when publishing or writing those files failed (the report stays).
 */
export async function finish(
  finished: Finished,
  publish: PublishTarget | undefined,
  cwd: string,
  again: boolean,
  interrupt: Effect.Effect<never, Interrupted> = Effect.never,
): Promise<0 | 2> {
  let prFile: string | undefined;
  let exitCode: 0 | 2 = 0;
  if (publish !== undefined) {
    // A stop while publishing stops git and removes publishing's own files; the report stays as it is.
    const published = await runWithServices(Effect.result(Effect.raceFirst(publishFolder(finished.dir, publish, cwd), interrupt)));
    if (Result.isSuccess(published)) {
      prFile = published.success;
      writeErr(`pr.md: ${prFile}`);
    } else {
      const command = `prove-scenario publish ${relative(cwd, finished.dir) || "."}`;
      const later = again ? `\nThe report is in ${finished.dir}; publish it later with \`${command}\`.` : "";
      const failure = published.failure;
      writeErr(
        failure instanceof Interrupted
          ? `publish: stopped by ${failure.signal}; the branch has what git pushed before it, if anything, and nothing after. The report is in ${finished.dir}; publish it with \`${command}\`.`
          : `${failure.message}${later}`,
      );
      exitCode = 2;
    }
  }
  try {
    for (const file of await githubFiles(finished, prFile)) writeErr(`wrote ${file}`);
  } catch (error) {
    writeErr(error instanceof Error ? error.message : String(error));
    exitCode = 2;
  }
  return exitCode;
}

/** A command's exit code with what came after its report: 2 when publishing or GitHub's files failed, else its own. */
export async function afterReport<R>(
  result: Ran<R>,
  present: Presenter<R>,
  publish: PublishTarget | undefined,
  cwd: string,
  interrupt?: Effect.Effect<never, Interrupted>,
): Promise<number> {
  if (result.report === undefined || result.reportFile === undefined) return result.exitCode;
  const finished: Finished = { verdict: present.verdict(result.report), exitCode: result.exitCode, dir: dirname(result.reportFile) };
  return Math.max(result.exitCode, await finish(finished, publish, cwd, true, interrupt));
}

/**
 * Runs a command that writes a report folder, stopped by SIGINT/SIGTERM: its last lines on
 * stderr, its report on stdout with --json, then the folder published when asked and GitHub
 * Actions' step summary and outputs written there.
 */
export async function reported<R>(
  run: (interrupt: Effect.Effect<never, Interrupted>) => Effect.Effect<Ran<R>, never, Git | Progress>,
  options: { readonly json: boolean; readonly publish: PublishTarget | undefined },
  present: Presenter<R>,
  cwd: string,
): Promise<number> {
  return withSignals(async (signals) => {
    const result = await runWithServices(run(signals.interrupt));
    printRan(result, present);
    if (options.json && result.report !== undefined) await writeOut(`${JSON.stringify(result.report, null, 2)}\n`);
    return afterReport(result, present, options.publish, cwd, signals.interrupt);
  });
}
