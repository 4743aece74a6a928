import { join } from "node:path";
import { Deferred, Effect, Layer } from "effect";
import { parseCommand, usage, type Command, type DemoOptions } from "./cli/args.ts";
import { demoTable, type DemoRow } from "./cli/demo-table.ts";
import { BrokenBug, defaultBugId, findBug, listBugs, NoZoo, UnknownBug, type ZooBug } from "./demo/index.ts";
import { Interrupted, UsageError } from "./errors.ts";
import { InitFailed, InitRefused, initScenarios } from "./init/index.ts";
import { GitLive } from "./git/git-live.ts";
import { proveDemo } from "./pipeline/demo.ts";
import { runAt } from "./pipeline/run-at.ts";
import { proveScenario, type ProofResult } from "./pipeline/prove.ts";
import { packageRoot } from "./package-root.ts";
import { progressLayer } from "./progress/progress-live.ts";
import { redact, secretsFrom } from "./report/redact.ts";

const secrets = secretsFrom(process.env);
const writeOut = (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
/** stderr is a log a person may paste somewhere: it is redacted like every report file. */
const writeErr = (line: string) => void process.stderr.write(`${redact(line, secrets)}\n`);

/**
 * Turns SIGINT and SIGTERM into an Interrupted failure for the pipeline. The handlers stay
 * installed until the command ends, so a second Ctrl-C cannot cut the cleanup short.
 */
function watchSignals() {
  const stop = Deferred.makeUnsafe<never, Interrupted>();
  let interrupted = false;
  const handler = (signal: NodeJS.Signals) => {
    interrupted = true;
    if (Deferred.doneUnsafe(stop, Effect.fail(new Interrupted({ signal })))) writeErr(`${signal}: stopping, removing worktrees and temporary files…`);
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

/** The last lines of a proof: the verdict, then the report's path. */
function printVerdict(result: ProofResult): void {
  const report = result.report;
  if (report === undefined) {
    writeErr(`could not run (exit ${result.exitCode}): ${result.message ?? ""}`);
    return;
  }
  writeErr(`${report.verdict} (exit ${report.exitCode}, ${report.reasonCode}): ${report.reason}`);
  writeErr(`report: ${result.reportFile ?? join(report.dir, report.markdown)}`);
}

// A bug in the prover, not a verdict: never let it read as exit 1 (not proved).
function printUnexpected(error: unknown): void {
  writeErr(`prove-scenario failed unexpectedly; worktrees and temporary files were released. Please report this:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

async function execute(command: Extract<Command, { kind: "prove" | "run" }>, cwd: string): Promise<number> {
  const signals = watchSignals();
  try {
    if (command.kind === "run") return await Effect.runPromise(runAt(command.options, cwd, signals.interrupt).pipe(Effect.provide(layer)));
    const result = await Effect.runPromise(proveScenario(command.options, cwd, secrets, signals.interrupt).pipe(Effect.provide(layer)));
    printVerdict(result);
    if (command.options.json && result.report !== undefined) await writeOut(`${JSON.stringify(result.report, null, 2)}\n`);
    return result.exitCode;
  } catch (error) {
    printUnexpected(error);
    return command.kind === "run" ? 125 : 2;
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
      const result = await Effect.runPromise(proveDemo(bug, { zooRoot, cwd, output, secrets, interrupt: signals.interrupt }).pipe(Effect.provide(layer)));
      printVerdict(result);
      rows.push({ bug: bug.id, result, durationMs: performance.now() - started });
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
    await writeOut(`${JSON.stringify(all ? reports : reports[0] ?? null, null, 2)}\n`);
  }
  return rows.length < bugs.length ? 2 : Math.max(0, ...rows.map((row) => row.result.exitCode));
}

/** `init`: writes a starter config and scenario for the app in cwd, and says what it found and what is next. */
async function init(cwd: string): Promise<number> {
  try {
    const result = await initScenarios(cwd);
    for (const line of result.detected) writeErr(`detected: ${line}`);
    for (const file of result.written) writeErr(`wrote ${file}`);
    for (const note of result.notes) writeErr(`note: ${note}`);
    writeErr(`next: run the example against your app with \`npx playwright test -c scenarios.config.ts\`, make it reproduce your bug, then prove the fix:\n  ${result.proveCommand}`);
    return 0;
  } catch (error) {
    if (!(error instanceof InitRefused || error instanceof InitFailed)) throw error;
    writeErr(error.message);
    return 2;
  }
}

/** The prove-scenario command: parses argv (without node and the script) and returns the exit code. */
export async function main(argv: ReadonlyArray<string>, cwd: string = process.cwd()): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    writeErr(error.message);
    return argv[0] === "run" ? 125 : 2;
  }
  switch (command.kind) {
    case "help":
      await writeOut(`${usage}\n`);
      return 0;
    case "demo":
      return demo(command.options, cwd);
    case "init":
      return init(cwd);
    default:
      return execute(command, cwd);
  }
}
