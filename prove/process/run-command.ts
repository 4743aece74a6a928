import { spawn as spawnChild, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";

export interface CommandSpec {
  /** A program and its arguments, or a shell command line when `args` is undefined. */
  readonly command: string;
  readonly args: ReadonlyArray<string> | undefined;
  readonly cwd: string;
  /** The child's whole environment. */
  readonly env: Readonly<Record<string, string>>;
  /** stdout and stderr go straight to this file (no pipe a straggler could hold open). */
  readonly logFile: string;
  /** Sent to the child alone when the run is interrupted, so it can tear down; the group is killed after. */
  readonly stopSignal: "SIGINT" | "SIGTERM";
  readonly stopGrace: Duration.Input;
}

export interface CommandResult {
  /** Undefined when the child was killed by a signal or could not start. */
  readonly exitCode: number | undefined;
  readonly signal: string | undefined;
  /** Why it could not start (command not found, bad cwd). */
  readonly startError: string | undefined;
}

interface Running {
  readonly child: ChildProcess;
  readonly result: Promise<CommandResult>;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

const spawn = (spec: CommandSpec) =>
  Effect.sync((): Running => {
    const log = openSync(spec.logFile, "a");
    try {
      const child =
        spec.args === undefined
          ? spawnChild(spec.command, { cwd: spec.cwd, env: spec.env, detached: true, shell: true, stdio: ["ignore", log, log] })
          : spawnChild(spec.command, [...spec.args], { cwd: spec.cwd, env: spec.env, detached: true, stdio: ["ignore", log, log] });
      const result = new Promise<CommandResult>((resolve) => {
        child.once("error", (error) => resolve({ exitCode: undefined, signal: undefined, startError: error.message }));
        child.once("exit", (code, signal) => resolve({ exitCode: code ?? undefined, signal: signal ?? undefined, startError: undefined }));
      });
      return { child, result };
    } finally {
      closeSync(log);
    }
  });

/**
 * Stops a child and everything in its process group: the stop signal first, to the child alone
 * for SIGINT (Playwright tears its fixtures down on it) or to the group for SIGTERM, then
 * SIGKILL to the group once the child exited or the grace period is over, so nothing it
 * started is left behind.
 */
const stop = ({ child, result }: Running, spec: CommandSpec) =>
  Effect.gen(function* () {
    const pid = child.pid;
    if (pid === undefined) return;
    const running = child.exitCode === null && child.signalCode === null;
    if (running) {
      yield* Effect.sync(() => (spec.stopSignal === "SIGINT" ? child.kill("SIGINT") : killGroup(pid, "SIGTERM")));
      yield* Effect.timeoutOption(
        Effect.promise(() => result),
        spec.stopGrace,
      );
    }
    yield* Effect.sync(() => killGroup(pid, "SIGKILL"));
    yield* Effect.promise(() => result);
  });

/**
 * Runs a command in its own process group with its output in a log file, and waits for it.
 * Interrupting the effect stops the command and its whole group before the effect ends.
 */
export const runCommand = Effect.fn("runCommand")(function* (spec: CommandSpec) {
  const running = yield* Effect.acquireRelease(spawn(spec), (running) => stop(running, spec));
  return yield* Effect.promise(() => running.result);
}, Effect.scoped);
