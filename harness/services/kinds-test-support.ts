import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "../free-port.ts";
import type { ServiceContext } from "./kind.ts";

/** A service's context as the core makes one, for the kinds' tests: its folder under `base`, a reserved port, a run marker of its own. */
export interface TestContext {
  readonly context: ServiceContext;
  /** The run marker its processes carry, `SCENARIO_APP_RUN=<id>`. */
  readonly marker: string;
  /** What it recorded. */
  log(): string;
  /** Lets its port go. */
  release(): Promise<void>;
}

export async function testContext(name: string, base: string, path: string = process.env.PATH ?? ""): Promise<TestContext> {
  const dataDir = join(base, name);
  await mkdir(dataDir);
  const reserved = await freePort();
  const runId = randomUUID();
  let output = "";
  const context: ServiceContext = {
    name,
    dataDir,
    port: reserved.port,
    env: { PATH: path, SCENARIO_APP_RUN: runId },
    record: (chunk) => (output += chunk),
  };
  return { context, marker: `SCENARIO_APP_RUN=${runId}`, log: () => output, release: reserved.release };
}

/** The pids of the processes whose environment holds `marker`, from /proc. */
export async function markedPids(marker: string): Promise<ReadonlyArray<number>> {
  const pids = (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry));
  const marked = await Promise.all(
    pids.map(async (pid) =>
      (await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "")).split("\0").includes(marker) ? [Number(pid)] : [],
    ),
  );
  return marked.flat();
}
