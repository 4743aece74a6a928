import { randomUUID } from "node:crypto";
import { readdir, readlink } from "node:fs/promises";
import { sep } from "node:path";
import { markedProcesses, runMarkerEnv, signalEach, untilGone } from "../app-server.ts";

/** `env` with a fresh run marker (SCENARIO_APP_RUN), so every process started with it can be found and stopped. */
export function markedEnv(env: Readonly<Record<string, string>>): { readonly env: Record<string, string>; readonly runId: string } {
  const runId = randomUUID();
  return { env: { ...env, [runMarkerEnv]: runId }, runId };
}

/** The run id of the marker in `env`, if it carries one. */
export const runIdOf = (env: Readonly<Record<string, string>>): string | undefined => env[runMarkerEnv];

/**
 * The live processes of a service: those carrying run marker `runId`, and those working in `dir` (a database's
 * children rewrite their command line over their environment, but keep their data folder as their working folder).
 */
export async function serviceProcesses(runId: string | undefined, dir: string | undefined): Promise<ReadonlyArray<number>> {
  const marked = runId === undefined ? [] : (await markedProcesses(runId)).map(({ pid }) => pid);
  if (dir === undefined) return marked;
  const inDir = await Promise.all(
    (await readdir("/proc").catch(() => []))
      .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
      .map(async (pid) => {
        const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => "");
        return cwd === dir || cwd.startsWith(dir + sep) ? [Number(pid)] : [];
      }),
  );
  return [...new Set([...marked, ...inDir.flat()])];
}

/** Kills (SIGKILL) every process of a service (or a prepare command) still running, and waits until they are gone. */
export async function killServiceProcesses(runId: string | undefined, dir: string | undefined): Promise<void> {
  const pids = await serviceProcesses(runId, dir);
  await untilGone(
    signalEach(
      pids.map((pid) => ({ pid })),
      "SIGKILL",
    ),
  );
}
