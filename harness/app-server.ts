import { createWriteStream } from "node:fs";
import { randomUUID } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { once } from "node:events";
import { execa, type ResultPromise } from "execa";
import type { ReadyCheck } from "./config.ts";
import { readyTimeoutMs, warmPaths } from "./app-settings.ts";
import { BoundedLog } from "./bounded-log.ts";
import { HarnessError } from "./errors.ts";
import { freePort, type ReservedPort } from "./free-port.ts";
import { logExcerpt, shownLine } from "./log-excerpt.ts";
import { untilPathAnswers, untilPathResponds } from "./ready-path.ts";

export interface AppServerOptions {
  /** The shell command that starts the app on `port`, and its whole environment. */
  readonly launch: (port: number) => { readonly command: string; readonly env: Record<string, string> };
  readonly cwd: string;
  readonly ready: ReadyCheck | undefined;
  readonly logFile: string;
  /**
   * One of several processes of `app.start` (by name): its messages name it and its fields (`app.start.<name>`). Its
   * port is reserved by the caller, and a port in use rejects with PortInUseError rather than starting it again, since
   * the other processes were given that port; with no ready check of its own, it is ready once `readyWith` resolves.
   * Aborting `stop` stops it while it is not ready yet (another process failed).
   */
  readonly process?: {
    readonly name: string;
    readonly port: ReservedPort;
    /** The ready check's field in the config: `app.ready` or `app.start.<name>.ready`. */
    readonly readyField: string;
    readonly readyWith?: Promise<void>;
    readonly stop: AbortSignal;
    /** The port it was given before, which was in use, for a line in its log. */
    readonly portWasInUse?: number;
  };
}

/** A process of several could not listen on the port it was given: every process starts again, each on a new port. */
export class PortInUseError extends HarnessError {
  /** The port that was taken. */
  readonly port: number;

  constructor(port: number, message: string) {
    super("boot", message);
    this.port = port;
  }
}

export interface AppServer {
  /** The port the app listens on, reserved for it until it stops. */
  readonly port: number;
  readonly url: string;
  logs(): string;
  stop(): Promise<void>;
}

const stopGraceMs = 5_000;
/** The app's output kept, and written to its log, at most: its first and its latest half MiB. */
const logHalf = 512 * 1024;
/** How much of the latest output a ready line, or a port in use, is looked for in. */
const readyWindow = 64 * 1024;

/** Node's last line after an uncaught exception: its version, printed under the error and its stack. */
const nodeVersionLine = /^Node\.js v\d+\.\d+\.\d+$/;
/** The line an uncaught exception's message starts on, e.g. `Error: ENOENT: …` or `Error [ERR_MODULE_NOT_FOUND]: …`. */
const thrownLine = /^[\w$.]*(?:Error|Exception)(?: \[\w+\])?: /;

/**
 * What the app said last, for the first line of a boot error: the error a Node app died of (under
 * it Node prints the stack and its version, which would say nothing), else its last line.
 */
function lastWords(output: string): string {
  const lines = output.trimEnd().split("\n");
  const last = lines.at(-1)?.trim() ?? "";
  if (last === "") return "printing nothing";
  const thrown = nodeVersionLine.test(last) ? lines.findLast((line) => thrownLine.test(line)) : undefined;
  if (thrown !== undefined) return `having thrown "${shownLine(thrown.trimEnd())}"`;
  return `its last line being "${shownLine(last)}"`;
}

function readyDescription(ready: ReadyCheck | undefined): string {
  if (ready === undefined) return "GET / answering";
  return "path" in ready ? `GET ${ready.path} answering` : `a line matching ${String(ready.log)}`;
}

/** Whether an app's output says it could not listen on `port` because something else holds it. */
function portWasInUse(output: string, port: number): boolean {
  return /EADDRINUSE|address already in use|port \d+ is already in use/i.test(output) && new RegExp(`\\b${port}\\b`).test(output);
}

/**
 * Starts the app in its own process group on a free port; resolves once its ready path answers or
 * a ready line appears. If another program took the port before the app bound it, starts it once
 * more on another port.
 */
export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const output = new BoundedLog(logHalf);
  const logFile = createWriteStream(options.logFile);
  let streamed = 0;
  let recent = "";
  const record = (chunk: string) => {
    output.push(chunk);
    recent = `${recent}${chunk}`.slice(-readyWindow);
    // Written as it comes while it fits; past that, the log is written once, bounded, when the app stops.
    streamed += chunk.length;
    if (streamed <= 2 * logHalf) logFile.write(chunk);
  };
  const logs = () => output.text();
  const closeLog = async () => {
    logFile.end();
    await once(logFile, "close");
    if (output.truncated) await writeFile(options.logFile, output.text());
  };

  const one = options.process;
  let previous = one?.portWasInUse;
  for (;;) {
    const reserved = one?.port ?? (await freePort());
    if (previous !== undefined)
      record(`[scenario-harness: port ${previous} was in use; starting the app again on port ${reserved.port}]\n`);
    recent = "";
    const url = `http://127.0.0.1:${reserved.port}`;
    const { command, env } = options.launch(reserved.port);
    const app = spawnApp(command, env, options.cwd, record);
    try {
      await waitUntilReady({ command, url, ready: options.ready, process: one }, app.child, app.exit, logs);
    } catch (error) {
      await app.stop();
      await reserved.release();
      const inUse = portWasInUse(recent, reserved.port);
      if (one === undefined && previous === undefined && inUse) {
        previous = reserved.port;
        continue;
      }
      await closeLog();
      throw inUse && one !== undefined && previous === undefined && error instanceof HarnessError
        ? new PortInUseError(reserved.port, error.message)
        : error;
    }
    const stop = async () => {
      await app.stop();
      await reserved.release();
      await closeLog();
    };
    return { port: reserved.port, url, logs, stop };
  }
}

/** One start of the app's command: the process, its end, and how to stop it and everything it started. */
function spawnApp(command: string, env: Record<string, string>, cwd: string, record: (chunk: string) => void) {
  // Every process the app starts inherits this, so one that leaves its process group (a daemon) is still found and stopped.
  const runId = randomUUID();
  const child: ResultPromise = execa(command, {
    shell: true,
    cwd,
    env: { ...env, [runMarkerEnv]: runId },
    extendEnv: false,
    detached: true,
    stdin: "ignore",
    all: true,
    reject: false,
    buffer: false,
  });
  child.all?.setEncoding("utf8");
  child.all?.on("data", record);

  let exited = false;
  const exit = child.then((result) => {
    exited = true;
    return result;
  });

  const stop = async () => {
    // Found while they all run: a process that is dying can no longer show its environment, so a later look would miss it.
    const marked = await markedProcesses(runId);
    if (!exited && child.pid !== undefined) {
      const group = child.pid;
      killGroup(group, "SIGTERM");
      // Once each: a second SIGTERM kills an app that shuts down on its first (process.once) before it is done.
      signalEach(
        marked.filter((found) => found.group !== group),
        "SIGTERM",
      );
      // An app that ignores SIGTERM (or a daemon of it holding its output open) is killed after the grace period.
      const timer = setTimeout(() => {
        if (child.pid !== undefined) killGroup(child.pid, "SIGKILL");
        void killMarked(runId, "SIGKILL");
      }, stopGraceMs);
      await exit;
      clearTimeout(timer);
    }
    await untilGone([...new Set([...marked.map(({ pid }) => pid), ...(await killMarked(runId, "SIGKILL"))])]);
  };
  return { child, exit, stop };
}

/** The variable that marks every process of one app's run. */
export const runMarkerEnv = "SCENARIO_APP_RUN";

/** The process group in a /proc/<pid>/stat line (its fifth field); undefined for an empty one (the process is gone). */
function processGroup(stat: string): number | undefined {
  const group = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2];
  return group === undefined ? undefined : Number(group);
}

/** Signals every process marked as of run `runId`. Reads Linux's /proc; elsewhere the process group is all there is. */
async function killMarked(runId: string, signal: NodeJS.Signals): Promise<ReadonlyArray<number>> {
  return signalEach(await markedProcesses(runId), signal);
}

/** Sends `signal` to each of `processes`; gives the pids it reached. */
export function signalEach(processes: ReadonlyArray<{ readonly pid: number }>, signal: NodeJS.Signals): ReadonlyArray<number> {
  return processes.flatMap(({ pid }) => {
    try {
      process.kill(pid, signal);
      return [pid];
    } catch {
      return []; // Gone already.
    }
  });
}

/** The processes marked as of run `runId`, with their process groups, from Linux's /proc (none elsewhere). */
export async function markedProcesses(runId: string): Promise<ReadonlyArray<{ readonly pid: number; readonly group: number | undefined }>> {
  const marker = `${runMarkerEnv}=${runId}`;
  const pids = await readdir("/proc").catch(() => []);
  const found = await Promise.all(
    pids
      .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
      .map(async (pid) => {
        const environ = await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
        if (!environ.split("\0").includes(marker)) return [];
        return [{ pid: Number(pid), group: processGroup(await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "")) }];
      }),
  );
  return found.flat();
}

/** Whether process `pid` still runs: neither gone nor a zombie waiting to be reaped. */
async function running(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

/**
 * Waits (at most 1 s) until the processes sent SIGKILL are gone, so stop() never resolves while
 * one still runs: a signal lands only when the process is next scheduled. They are not our
 * children, so /proc is polled.
 */
export async function untilGone(pids: ReadonlyArray<number>): Promise<void> {
  for (let waited = 0; waited < 1000; waited += 10) {
    const left = (await Promise.all(pids.map(running))).some(Boolean);
    if (!left) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

async function waitUntilReady(
  options: {
    readonly command: string;
    readonly url: string;
    readonly ready: ReadyCheck | undefined;
    readonly process: AppServerOptions["process"];
  },
  child: ResultPromise,
  exit: Promise<{ exitCode?: number; signal?: string }>,
  logs: () => string,
): Promise<void> {
  const ready = options.ready;
  const timeoutMs = readyTimeoutMs(ready);
  const readyUrl = new URL(ready !== undefined && "path" in ready ? ready.path : "/", options.url);
  const pattern = ready !== undefined && "log" in ready ? (typeof ready.log === "string" ? new RegExp(ready.log) : ready.log) : undefined;

  let settle: (error?: HarnessError) => void = () => {};
  const outcome = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  let done = false;
  const finish = (error?: HarnessError) => {
    if (done) return;
    done = true;
    settle(error);
  };

  const stopChecking = new AbortController();
  // The paths of app.ready.warm not answered yet, asked for once the app is ready; undefined until then.
  let unwarmed: Set<string> | undefined;
  const warm = () => {
    if (unwarmed !== undefined) return;
    const paths = warmPaths(ready);
    unwarmed = new Set(paths);
    // Each rejects only when stopped, once the outcome is settled.
    void Promise.all(
      paths.map((path) => untilPathResponds(new URL(path, options.url), stopChecking.signal).then(() => unwarmed?.delete(path))),
    ).then(
      () => finish(),
      () => {},
    );
  };
  // The ready line is looked for in what came lately, not in the whole log again at every chunk.
  let recent = "";
  const checkLogs = (chunk: string) => {
    recent = `${recent}${chunk}`.slice(-readyWindow);
    if (pattern?.test(recent)) warm();
  };
  const readyWith = options.process?.readyWith;
  // Stopped when another process failed: that one's error is the one shown.
  const stopped = () => finish(new HarnessError("boot", "Stopped before it was ready: another process of app.start failed."));
  options.process?.stop.addEventListener("abort", stopped);
  if (options.process?.stop.aborted === true) stopped();
  if (readyWith !== undefined) {
    void readyWith.then(() => finish());
  } else if (pattern === undefined) {
    // Rejects only when stopped, once the outcome is settled.
    void untilPathAnswers(readyUrl, stopChecking.signal).then(warm, () => {});
  } else {
    child.all?.on("data", checkLogs);
  }

  // Its name and fields in messages: the app's, or those of one of several processes.
  const name = options.process?.name;
  const subject = name === undefined ? "The app" : `The app's process "${name}"`;
  const startField = name === undefined ? "app.start" : `app.start.${name}`;
  const readyField = options.process?.readyField ?? "app.ready";
  const timedOut = () => {
    const waiting =
      unwarmed === undefined
        ? `${subject} did not become ready within ${timeoutMs / 1000}s (waiting for ${readyDescription(ready)} at ${options.url}). `
        : `${subject} was ready, but ${[...unwarmed].map((path) => `GET ${path}`).join(", ")} (${readyField}.warm) had not answered ` +
          `within ${timeoutMs / 1000}s of its start, at ${options.url}. `;
    finish(
      new HarnessError(
        "boot",
        `${waiting}Check ${startField} (\`${options.command}\`) and ${readyField} in the scenario config, or raise ${readyField}.timeout.\n` +
          `Its output:\n${logExcerpt(logs())}`,
      ),
    );
  };
  // One ready with the others has no deadline of its own: theirs bound it.
  const deadline = readyWith === undefined ? setTimeout(timedOut, timeoutMs) : undefined;

  void exit.then((result) => {
    const how = result.signal !== undefined ? `was killed by ${result.signal}` : `exited with code ${String(result.exitCode)}`;
    finish(
      new HarnessError(
        "boot",
        `${subject} ${how} before it was ready, ${lastWords(logs())}. Check ${startField} (\`${options.command}\`) in the scenario config ` +
          `and ${name === undefined ? "the app's" : "its"} output:\n${logExcerpt(logs())}`,
      ),
    );
  });

  try {
    await outcome;
  } finally {
    clearTimeout(deadline);
    stopChecking.abort();
    child.all?.off("data", checkLogs);
    options.process?.stop.removeEventListener("abort", stopped);
  }
}
