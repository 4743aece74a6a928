// The commands past parsing: loaded by cli.ts only once the command line is valid, so a usage
// error or --help does not wait for the whole pipeline to load.
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Result from "effect/Result";
import type { Command, DemoOptions, MergeOptions, ProveOptions, PublishOptions, PublishTarget } from "./args.ts";
import { githubFiles, publishFolder, readFinished, type Finished } from "./finish.ts";
import { demoTable, type DemoRow } from "./demo-table.ts";
import { bisectPresenter, bisectScenario } from "../commands/bisect.ts";
import { comparePresenter, compareScenario } from "../commands/compare.ts";
import { proveDemo } from "../commands/demo.ts";
import { isMany, proveMany, summaryPresenter } from "../commands/prove-many.ts";
import { proofPresenter, proveScenario } from "../commands/prove.ts";
import { runAt } from "../commands/run-at.ts";
import { BrokenBug, defaultBugId, findBug, listBugs, NoZoo, UnknownBug, type ZooBug } from "../demo/index.ts";
import type { Presenter, Ran } from "../engine/run.ts";
import { Interrupted, OutBusy, ReportWriteFailed } from "../errors.ts";
import { InitFailed, InitRefused, initScenarios } from "../init/index.ts";
import { Git } from "../git/git.ts";
import { GitLive } from "../git/git-live.ts";
import { claimReportFolder } from "../pipeline/report-claim.ts";
import { MergeRefused } from "../summary/errors.ts";
import { mergeSummaries } from "../summary/merge.ts";
import { readSummary } from "../summary/write-summary.ts";
import { packageRoot } from "../package-root.ts";
import type { Progress } from "../progress/progress.ts";
import { progressLayer } from "../progress/progress-live.ts";
import { secrets, writeErr, writeOut } from "./output.ts";

/**
 * Turns SIGINT and SIGTERM into an Interrupted failure for the pipeline. The handlers stay
 * installed until the command ends, so a second Ctrl-C cannot cut the cleanup short.
 */
function watchSignals() {
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

const layer = Layer.mergeAll(GitLive, progressLayer(writeErr));

/** This package's root: the zoo, its scenarios and their config, wherever prove-scenario is run from. */
const zooRoot = packageRoot;

// A bug in the prover, not a verdict: never let it read as exit 1 (not proved).
function printUnexpected(error: unknown): void {
  writeErr(
    `prove-scenario failed unexpectedly; worktrees and temporary files were released. Please report this:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
}

/** A command's last lines: its report's, or why it could not run. */
function printRan<R>(result: Ran<R>, present: Presenter<R>): void {
  if (result.report === undefined || result.reportFile === undefined)
    writeErr(`could not run (exit ${result.exitCode}): ${result.message ?? ""}`);
  else for (const line of present.lines(result.report, result.reportFile)) writeErr(line);
}

/**
 * After a proof or a merge (`again`: say how to publish later), or for `publish`: publishes when
 * asked, then writes GitHub Actions' step summary and outputs when running there. Returns 0, or 2
 * when publishing or writing those files failed (the report stays).
 */
async function finish(
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
    const published = await Effect.runPromise(
      Effect.result(Effect.raceFirst(publishFolder(finished.dir, publish, cwd), interrupt)).pipe(Effect.provide(layer)),
    );
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
async function afterReport<R>(
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
async function reported<R>(
  run: (interrupt: Effect.Effect<never, Interrupted>) => Effect.Effect<Ran<R>, never, Git | Progress>,
  options: { readonly json: boolean; readonly publish: PublishTarget | undefined },
  present: Presenter<R>,
  cwd: string,
): Promise<number> {
  const signals = watchSignals();
  try {
    const result = await Effect.runPromise(run(signals.interrupt).pipe(Effect.provide(layer)));
    printRan(result, present);
    if (options.json && result.report !== undefined) await writeOut(`${JSON.stringify(result.report, null, 2)}\n`);
    return await afterReport(result, present, options.publish, cwd, signals.interrupt);
  } catch (error) {
    printUnexpected(error);
    return 2;
  } finally {
    signals.dispose();
  }
}

/** A proof: of several scenarios (several paths, a folder or a shard) with a summary, else of one. */
function prove(options: ProveOptions, cwd: string): Promise<number> {
  const isFolder = (path: string) => existsSync(resolve(cwd, path)) && statSync(resolve(cwd, path)).isDirectory();
  return isMany(options, isFolder)
    ? reported((interrupt) => proveMany(options, cwd, secrets, interrupt), options, summaryPresenter, cwd)
    : reported((interrupt) => proveScenario(options, cwd, secrets, interrupt), options, proofPresenter, cwd);
}

/** `run --at`: one side for `git bisect run`; 125 when it could not run. */
async function runOneSide(options: Extract<Command, { kind: "run" }>["options"], cwd: string): Promise<number> {
  const signals = watchSignals();
  try {
    return await Effect.runPromise(runAt(options, cwd, signals.interrupt).pipe(Effect.provide(layer)));
  } catch (error) {
    printUnexpected(error);
    return 125;
  } finally {
    signals.dispose();
  }
}

/** The bugs `demo` proves: every one for "all", else the one named (the default when none is). */
async function demoBugs(bugId: string | undefined): Promise<ReadonlyArray<ZooBug> | undefined> {
  try {
    return bugId === "all" ? await listBugs(zooRoot) : [await findBug(zooRoot, bugId ?? defaultBugId)];
  } catch (error) {
    if (!(error instanceof UnknownBug || error instanceof BrokenBug || error instanceof NoZoo)) throw error;
    writeErr(error.message);
    return undefined;
  }
}

/**
 * `demo [<bug-id>|all]`: proves each bug's fix in its own sandbox, one after the other, with the
 * output options of any proof; for "all" prints a table of the verdicts (on stderr with --json,
 * which prints the report, or for "all" the array of reports). Exits 0 only when every fix was
 * proved, else with the worst code.
 */
async function demo(options: DemoOptions, cwd: string): Promise<number> {
  const bugs = await demoBugs(options.bugId);
  if (bugs === undefined) return 2;
  const all = options.bugId === "all";
  const signals = watchSignals();
  const rows: DemoRow[] = [];
  try {
    for (const bug of bugs) {
      if (all) writeErr(`demo ${bug.id}: ${bug.title}`);
      const out = options.out === undefined ? undefined : all ? join(options.out, bug.id) : options.out;
      const started = performance.now();
      const output = { ...options, out };
      const result = await Effect.runPromise(
        proveDemo(bug, { zooRoot, cwd, output, secrets, interrupt: signals.interrupt }).pipe(Effect.provide(layer)),
      );
      printRan(result, proofPresenter);
      const exitCode =
        options.publish === undefined
          ? result.exitCode
          : await afterReport(result, proofPresenter, options.publish, cwd, signals.interrupt);
      rows.push({
        bug: bug.id,
        result: { ...result, exitCode: exitCode === 0 ? 0 : exitCode === 1 ? 1 : 2 },
        durationMs: performance.now() - started,
      });
      if (signals.interrupted()) break;
    }
  } catch (error) {
    printUnexpected(error);
    return 2;
  } finally {
    signals.dispose();
  }
  if (all && options.json) writeErr(demoTable(rows));
  else if (all) await writeOut(`${demoTable(rows)}\n`);
  if (options.json) {
    const reports = rows.flatMap((row) => (row.result.report === undefined ? [] : [row.result.report]));
    await writeOut(`${JSON.stringify(all ? reports : (reports[0] ?? null), null, 2)}\n`);
  }
  return rows.length < bugs.length ? 2 : Math.max(0, ...rows.map((row) => row.result.exitCode));
}

/** `publish <dir>`: publishes a report folder a proof wrote and writes its pr.md. */
async function publish(options: PublishOptions, cwd: string): Promise<number> {
  const dir = resolve(cwd, options.dir);
  const finished = await readFinished(dir);
  if (finished === undefined) {
    writeErr(
      `publish: ${dir} holds no report.json, summary.json, compare.json or bisect.json. Pass the folder a proof, a comparison or a bisection wrote (it holds report.md, summary.md, compare.md or bisect.md).`,
    );
    return 2;
  }
  const signals = watchSignals();
  try {
    return await finish(finished, options, cwd, false, signals.interrupt);
  } finally {
    signals.dispose();
  }
}

/** `merge <dir>...`: one summary from a proof's shards; exit code as for the proof of all of them. */
async function merge(options: MergeOptions, cwd: string): Promise<number> {
  try {
    const dirs = options.dirs.map((dir) => resolve(cwd, dir));
    const first = await readSummary(dirs[0] ?? cwd);
    const toplevel = Effect.gen(function* () {
      const git = yield* Git;
      return yield* git.toplevel(cwd);
    });
    const root = await Effect.runPromise(
      toplevel.pipe(
        Effect.orElseSucceed(() => cwd),
        Effect.provide(layer),
      ),
    );
    const out =
      options.out === undefined
        ? join(root, "reports", `${first?.base.sha?.slice(0, 7) ?? "base"}-${first?.head.sha?.slice(0, 7) ?? "head"}`)
        : resolve(cwd, options.out);
    // The folder is held while the merge writes it, as a proof holds its own: a merge or a proof
    // writing it at the same time would mix their files.
    const merged = Effect.scoped(
      Effect.gen(function* () {
        const dir = yield* claimReportFolder(out, options.out);
        const summary = yield* Effect.tryPromise({ try: () => mergeSummaries(dirs, dir), catch: (error) => error });
        return { summary, dir };
      }),
    );
    const result = await Effect.runPromise(Effect.result(merged).pipe(Effect.provide(layer)));
    if (Result.isFailure(result)) throw result.failure;
    const { summary, dir } = result.success;
    const ran: Ran<typeof summary> = {
      exitCode: summary.exitCode,
      report: summary,
      reportFile: join(dir, summary.markdown),
      message: undefined,
    };
    printRan(ran, summaryPresenter);
    if (options.json) await writeOut(`${JSON.stringify(summary, null, 2)}\n`);
    return afterReport(ran, summaryPresenter, options.publish, cwd);
  } catch (error) {
    if (!(error instanceof MergeRefused || error instanceof OutBusy || error instanceof ReportWriteFailed)) throw error;
    writeErr(error.message);
    return 2;
  }
}

/** `init`: writes a starter config and scenario for the app in cwd, and says what it found and what is next. */
async function init(cwd: string): Promise<number> {
  try {
    const result = await initScenarios(cwd);
    for (const line of result.detected) writeErr(`detected: ${line}`);
    for (const file of result.written) writeErr(`wrote ${file}`);
    for (const note of result.notes) writeErr(`note: ${note}`);
    writeErr(
      `next: run the example against your app with \`npx playwright test -c scenarios.config.ts\`, make it reproduce your bug, then prove the fix:\n  ${result.proveCommand}`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof InitRefused || error instanceof InitFailed)) throw error;
    writeErr(error.message);
    return 2;
  }
}

/** Runs a parsed command other than help; returns the exit code. */
export function runCommand(command: Exclude<Command, { kind: "help" }>, cwd: string): Promise<number> {
  switch (command.kind) {
    case "demo":
      return demo(command.options, cwd);
    case "init":
      return init(cwd);
    case "publish":
      return publish(command.options, cwd);
    case "merge":
      return merge(command.options, cwd);
    case "bisect":
      return reported((interrupt) => bisectScenario(command.options, cwd, secrets, interrupt), command.options, bisectPresenter, cwd);
    case "compare":
      return reported((interrupt) => compareScenario(command.options, cwd, secrets, interrupt), command.options, comparePresenter, cwd);
    case "run":
      return runOneSide(command.options, cwd);
    case "prove":
      return prove(command.options, cwd);
  }
}
