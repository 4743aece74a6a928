import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ServiceConfig } from "../config.ts";
import { BoundedLog } from "../bounded-log.ts";
import { HarnessError } from "../errors.ts";
import { freePort, type ReservedPort } from "../free-port.ts";
import type { RunningService, ServiceKind } from "./kind.ts";
import { markedEnv } from "./processes.ts";

/** The services' and prepare's output kept, at most: its first and its latest half MiB. */
const logHalf = 512 * 1024;

/** One test's services, up: their values for the placeholders, their output, and how to stop them all. */
export interface StartedServices {
  readonly values: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** A writer of lines prefixed `[<group>] ` into the services' log (prepare's output goes there too). */
  recorder(group: string): (chunk: string) => void;
  /** Everything the services (and prepare) printed, each line prefixed with who printed it. */
  logs(): string;
  /** Stops every service, releases its port, and resolves once their processes are gone. */
  stop(): Promise<void>;
}

/** The output log every service writes into, its lines prefixed with the writer's name. */
function prefixedLog() {
  const log = new BoundedLog(logHalf);
  const recorder = (group: string) => {
    let partial = "";
    return (chunk: string) => {
      const lines = `${partial}${chunk}`.split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) log.push(`[${group}] ${line}\n`);
    };
  };
  return { recorder, logs: () => log.text() };
}

/**
 * Starts every service of a test at once, each in its own folder under `base`/services on a free port, with `env` and
 * a run marker of its own. When one cannot start, those that did are stopped and its error is thrown.
 */
export async function startServices(input: {
  readonly services: ReadonlyArray<readonly [string, ServiceConfig]>;
  readonly kinds: Readonly<Record<string, ServiceKind<never>>>;
  readonly base: string;
  readonly env: Readonly<Record<string, string>>;
}): Promise<StartedServices> {
  const { recorder, logs } = prefixedLog();
  const started = await Promise.allSettled(
    input.services.map(async ([name, config]) => {
      const kind = input.kinds[config.kind];
      if (kind === undefined)
        throw new HarnessError("config", `app.services.${name}.kind "${config.kind}" has no implementation in this harness.`);
      const dataDir = join(input.base, "services", name);
      await mkdir(dataDir, { recursive: true });
      const port: ReservedPort = await freePort();
      try {
        const running: RunningService = await kind.start(config as never, {
          name,
          dataDir,
          port: port.port,
          env: markedEnv(input.env).env,
          record: recorder(name),
        });
        return { name, running, port };
      } catch (error) {
        await port.release();
        throw error instanceof HarnessError
          ? error
          : new HarnessError(
              "boot",
              `Service "${name}" (${config.kind}) could not start: ${error instanceof Error ? error.message : String(error)}`,
            );
      }
    }),
  );
  const up = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const stop = async () => {
    await Promise.all(
      up.map(async ({ running, port }) => {
        await running.stop();
        await port.release();
      }),
    );
  };
  const failure = started.find((result) => result.status === "rejected");
  if (failure !== undefined) {
    await stop();
    throw failure.reason;
  }
  return { values: Object.fromEntries(up.map(({ name, running }) => [name, running.values])), recorder, logs, stop };
}
