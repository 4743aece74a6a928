import { access, constants, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { defaultReadyTimeoutMs } from "../config.ts";
import { HarnessError } from "../errors.ts";
import { logExcerpt } from "../log-excerpt.ts";
import type { ServiceContext } from "./kind.ts";
import { startRecorded } from "./recorded-process.ts";

/** How long a server has to exit after SIGTERM before it is killed. */
const stopGraceMs = 10_000;

/** Whether `path` is a file this process may execute. */
export async function isExecutable(path: string): Promise<boolean> {
  const found = await stat(path).catch(() => undefined);
  if (found === undefined || !found.isFile()) return false;
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** The first of `names` found as an executable file in one of `folders`, folder by folder; undefined when none is. */
export async function findProgram(names: ReadonlyArray<string>, folders: ReadonlyArray<string>): Promise<string | undefined> {
  for (const folder of folders) {
    for (const name of names) {
      const path = join(folder, name);
      if (await isExecutable(path)) return path;
    }
  }
  return undefined;
}

/** The folders of a PATH value, in order, empty entries left out. */
export const pathFolders = (path: string | undefined): ReadonlyArray<string> =>
  (path ?? "").split(delimiter).filter((folder) => folder !== "");

/** `args` of a service's config: a list of strings, or none. */
export function argsField(args: unknown, context: ServiceContext, what: string): ReadonlyArray<string> {
  if (args === undefined) return [];
  if (Array.isArray(args) && args.every((arg) => typeof arg === "string")) return args;
  throw new HarnessError(
    "config",
    `app.services.${context.name}.args is ${JSON.stringify(args)}: set it to a list of ${what} options, each a string, e.g. ["--appendonly", "yes"], or leave it out.`,
  );
}

/** A server started in the foreground: stopping it resolves once it has exited. */
export interface ForegroundServer {
  stop(): Promise<void>;
}

export interface ForegroundOptions {
  readonly program: string;
  readonly args: ReadonlyArray<string>;
  readonly context: ServiceContext;
  /** The line the server prints once it accepts connections. */
  readonly readyLine: RegExp;
  /** The kind's name in messages, e.g. "redis". */
  readonly kind: string;
}

/**
 * Starts `program` in the foreground with the service's environment (so it carries the run marker),
 * its output going to the service's log; resolves once it prints its ready line, rejects (having
 * stopped it) when it exits first or prints none within the ready timeout.
 */
export async function startForeground(options: ForegroundOptions): Promise<ForegroundServer> {
  const { context } = options;
  // kill() sends SIGTERM, then SIGKILL if it has not exited by then.
  const { child, recent } = startRecorded(
    options.program,
    options.args,
    { cwd: context.dataDir, env: context.env, forceKillAfterDelay: stopGraceMs },
    context.record,
  );
  let exited = false;
  const exit = child.then((result) => {
    exited = true;
    return result;
  });
  const stop = async () => {
    if (exited) return;
    child.kill();
    await exit;
  };

  const command = [options.program, ...options.args].join(" ");
  const ready = new Promise<void>((resolve, reject) => {
    // After startRecorded's own listener, which keeps the latest output.
    child.all?.on("data", () => {
      if (options.readyLine.test(recent())) resolve();
    });
    void exit.then((result) => {
      const how = result.signal !== undefined ? `was killed by ${result.signal}` : `exited with code ${String(result.exitCode)}`;
      reject(
        new HarnessError(
          "boot",
          `app.services.${context.name} (${options.kind}): the server ${how} before it was ready (\`${command}\`). Its output:\n${logExcerpt(recent())}`,
        ),
      );
    });
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HarnessError(
            "boot",
            `app.services.${context.name} (${options.kind}): the server did not print that it was ready (${String(options.readyLine)}) ` +
              `within ${defaultReadyTimeoutMs / 1000}s (\`${command}\`). Its output:\n${logExcerpt(recent())}`,
          ),
        ),
      defaultReadyTimeoutMs,
    );
  });
  try {
    await Promise.race([ready, deadline]);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { stop };
}
