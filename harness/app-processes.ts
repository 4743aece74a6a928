import { join } from "node:path";
import type { ReadyCheck, ScenarioAppConfig } from "./config.ts";
import { readyTimeoutMs, warmPaths } from "./app-settings.ts";
import { PortInUseError, startAppServer, type AppServer } from "./app-server.ts";
import { HarnessError } from "./errors.ts";
import { freePort } from "./free-port.ts";

/** One process of `app.start`, checked: its name ("" for a single command), its command and its ready check. */
export interface AppProcess {
  readonly name: string;
  readonly command: string;
  /** Its check; undefined for one of several that names none, which is ready once the others are. */
  readonly ready: ReadyCheck | undefined;
  /** Where its check is in the config: `app.ready` or `app.start.<name>.ready`. */
  readonly readyField: string;
}

/** A process's name: usable in `{<name>.url}` and as a file name. */
const processName = /^[A-Za-z][A-Za-z0-9_-]*$/;

const describe = (value: unknown) => (value instanceof RegExp ? String(value) : (JSON.stringify(value) ?? String(value)));

/** The ready check of process `name` (at `field`), checked; undefined when it names none. */
function processReady(value: unknown, field: string): ReadyCheck | undefined {
  if (value === undefined) return undefined;
  const check = value as Partial<Record<"path" | "log", unknown>>;
  const valid =
    typeof value === "object" &&
    value !== null &&
    (typeof check.path === "string" ? check.log === undefined : typeof check.log === "string" || check.log instanceof RegExp);
  if (!valid) {
    throw new HarnessError(
      "config",
      `${field} is ${describe(value)}: set it to { path: "/health" } (a path that answers once the process is up) or ` +
        `{ log: "ready" } (a line it prints then), or leave it out to count it ready once the other processes are.`,
    );
  }
  readyTimeoutMs(value as ReadyCheck, field);
  warmPaths(value as ReadyCheck, field);
  return value as ReadyCheck;
}

/**
 * The processes `app.start` names, checked before anything starts: one command, or several by name (the first the one the
 * browser opens, `app.ready` its check unless it names its own). `taken` are names already used for placeholders, which
 * a process may not take (app.services').
 */
export function appProcesses(app: ScenarioAppConfig, taken: ReadonlyArray<string> = []): ReadonlyArray<AppProcess> {
  const start: unknown = app.start;
  if (typeof start === "string" && start !== "") return [{ name: "", command: start, ready: app.ready, readyField: "app.ready" }];
  if (typeof start !== "object" || start === null || Array.isArray(start) || Object.keys(start).length === 0) {
    throw new HarnessError(
      "config",
      'app.start is not set: set it to the shell command that starts the app\'s server, e.g. "pnpm start", ' +
        'or to its processes by name, the one the browser opens first, e.g. { web: "pnpm start", api: "node api.js" }.',
    );
  }
  return Object.entries(start as Record<string, unknown>).map(([name, value], index) => {
    const field = `app.start.${name}`;
    if (!processName.test(name)) {
      throw new HarnessError(
        "config",
        `app.start names a process ${JSON.stringify(name)}: rename it to a letter then letters, digits, _ or -, e.g. "api", ` +
          `as its name goes into {${name}.url}.`,
      );
    }
    if (name === "replay" || taken.includes(name)) {
      const holder = name === "replay" ? "{replay.<name>} is the replay agents'" : `app.services names "${name}" too`;
      throw new HarnessError(
        "config",
        `app.start names a process "${name}", but ${holder}: rename the process, e.g. "${name}-app", so that {<name>.url} names one thing.`,
      );
    }
    const own = typeof value === "object" && value !== null ? (value as { command?: unknown; ready?: unknown }) : undefined;
    const command: unknown = typeof value === "string" ? value : own?.command;
    if (typeof command !== "string" || command === "") {
      throw new HarnessError(
        "config",
        `${field} is ${describe(value)}: set it to the shell command that starts the process, e.g. "node api.js", ` +
          `or to { command, ready }.`,
      );
    }
    const ready = processReady(own?.ready, `${field}.ready`);
    // The first process is the one the browser opens: app.ready is its check unless it names its own.
    if (index === 0 && ready === undefined) return { name, command, ready: app.ready, readyField: "app.ready" };
    return { name, command, ready, readyField: `${field}.ready` };
  });
}

/** Where a process of several is reached: its URL and port, for `{<name>.url}` and `{<name>.port}`. */
export interface ProcessAddress {
  readonly url: string;
  readonly port: number;
}

/** One process of the app, up: its name ("" for a single command) and its server. */
export interface StartedProcess {
  readonly name: string;
  readonly server: AppServer;
}

/**
 * Starts every process of the app at once, each in its own process group on its own free port, and resolves once each
 * is ready. The first failure stops them all and is thrown. A process whose port was taken before it bound it starts
 * them all again, once, on new ports: each was given the others' ports.
 */
export async function startProcesses(input: {
  readonly processes: ReadonlyArray<AppProcess>;
  /** The whole command and environment of `one`, given every process's address (the first's URL at the browser's host). */
  readonly launch: (
    one: AppProcess,
    port: number,
    addresses: Readonly<Record<string, ProcessAddress>>,
  ) => { readonly command: string; readonly env: Record<string, string> };
  readonly cwd: string;
  /** The folder each process's log file goes in: server.log for a single command, server-<name>.log for each of several. */
  readonly logDir: string;
  /** The URL of the first process on `port`, where the browser opens it. */
  readonly firstUrl: (port: number) => string;
}): Promise<{ readonly started: ReadonlyArray<StartedProcess>; readonly addresses: Readonly<Record<string, ProcessAddress>> }> {
  const { processes } = input;
  const [only] = processes;
  if (processes.length === 1 && only?.name === "") {
    // A single command, as before processes could be named: started again on its own when its port was taken.
    const server = await startAppServer({
      launch: (port) => input.launch(only, port, {}),
      cwd: input.cwd,
      ready: only.ready,
      logFile: join(input.logDir, "server.log"),
    });
    return { started: [{ name: "", server }], addresses: {} };
  }
  let inUse: { readonly name: string; readonly port: number } | undefined;
  for (;;) {
    const ports = await Promise.all(processes.map(() => freePort()));
    const addresses = Object.fromEntries(
      processes.map((one, index) => {
        const port = ports[index]?.port ?? 0;
        return [one.name, { url: index === 0 ? input.firstUrl(port) : `http://127.0.0.1:${port}`, port }];
      }),
    );
    const stop = new AbortController();
    // A process with no check of its own is ready once those with one are.
    const unchecked = (one: AppProcess, index: number) => one.ready === undefined && index > 0;
    let checkedReady: () => void = () => {};
    const othersReady = new Promise<void>((resolve) => (checkedReady = resolve));
    let failure: unknown;
    const runs = processes.map(async (one, index) => {
      const reserved = ports[index];
      if (reserved === undefined) return undefined;
      try {
        const server = await startAppServer({
          launch: (port) => input.launch(one, port, addresses),
          cwd: input.cwd,
          ready: one.ready,
          logFile: join(input.logDir, one.name === "" ? "server.log" : `server-${one.name}.log`),
          process: {
            name: one.name,
            port: reserved,
            readyField: one.readyField,
            ...(unchecked(one, index) ? { readyWith: othersReady } : {}),
            stop: stop.signal,
            ...(inUse?.name === one.name ? { portWasInUse: inUse.port } : {}),
          },
        });
        return { name: one.name, server };
      } catch (error) {
        if (!stop.signal.aborted) {
          failure = error;
          if (error instanceof PortInUseError) inUse ??= { name: one.name, port: error.port };
          stop.abort();
        }
        return undefined;
      }
    });
    void Promise.all(runs.filter((_, index) => !unchecked(processes[index] as AppProcess, index))).then(() => checkedReady());
    const started = await Promise.all(runs);
    const up = started.flatMap((one) => (one === undefined ? [] : [one]));
    if (failure === undefined) return { started: up, addresses };
    await Promise.all(up.map((one) => one.server.stop()));
    if (failure instanceof PortInUseError && inUse?.port === failure.port) continue;
    throw failure;
  }
}

/** One process's output, by its name ("" for a single command). */
export interface ProcessOutput {
  readonly name: string;
  readonly text: string;
}

/**
 * The processes' output, each (or what `shown` makes of it) under a line `=== <name> ===`, in the config's order; a
 * single command's output alone, as it is.
 */
export function groupedLogs(outputs: ReadonlyArray<ProcessOutput>, shown: (text: string) => string = (text) => text): string {
  const [only] = outputs;
  if (outputs.length === 1 && only?.name === "") return shown(only.text);
  return outputs
    .map(({ name, text }) => `=== ${name} ===\n${text.trim() === "" ? "[scenario-harness: it printed nothing]" : shown(text).trimEnd()}\n`)
    .join("\n");
}
