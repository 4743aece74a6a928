import { join } from "node:path";
import { Deferred, Effect, Layer } from "effect";
import { parseCommand, usage, type Command } from "./cli/args.ts";
import { Interrupted, UsageError } from "./errors.ts";
import { GitLive } from "./git/git-live.ts";
import { runAt } from "./pipeline/run-at.ts";
import { proveScenario } from "./pipeline/prove.ts";
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
  const handler = (signal: NodeJS.Signals) => {
    if (Deferred.doneUnsafe(stop, Effect.fail(new Interrupted({ signal })))) writeErr(`${signal}: stopping, removing worktrees and temporary files…`);
    else writeErr(`${signal}: still cleaning up, one moment…`);
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    interrupt: Deferred.await(stop),
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}

const layer = Layer.mergeAll(GitLive, progressLayer(writeErr));

async function execute(command: Exclude<Command, { kind: "help" } | { kind: "demo" }>, cwd: string): Promise<number> {
  const signals = watchSignals();
  try {
    if (command.kind === "run") return await Effect.runPromise(runAt(command.options, cwd, signals.interrupt).pipe(Effect.provide(layer)));
    const result = await Effect.runPromise(proveScenario(command.options, cwd, secrets, signals.interrupt).pipe(Effect.provide(layer)));
    const report = result.report;
    if (report === undefined) {
      writeErr(`could not run (exit ${result.exitCode}): ${result.message ?? ""}`);
      return result.exitCode;
    }
    writeErr(`${report.verdict} (exit ${report.exitCode}, ${report.reasonCode}): ${report.reason}`);
    writeErr(`report: ${join(report.dir, report.markdown)}`);
    if (command.options.json) await writeOut(`${JSON.stringify(report, null, 2)}\n`);
    return result.exitCode;
  } catch (error) {
    // A bug in the prover, not a verdict: never let it read as exit 1 (not proved).
    writeErr(`prove-scenario failed unexpectedly; worktrees and temporary files were released. Please report this:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return command.kind === "run" ? 125 : 2;
  } finally {
    signals.dispose();
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
      writeErr(
        `prove-scenario demo${command.bugId === undefined ? "" : ` ${command.bugId}`} is not available yet: the bug zoo in examples/agent-chat/bugs/ is still being written. ` +
          "Prove a fix of your own with --base <ref> --head <ref> <scenario-file>.",
      );
      return 2;
    default:
      return execute(command, cwd);
  }
}
