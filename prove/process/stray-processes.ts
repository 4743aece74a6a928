import { readdir, readlink } from "node:fs/promises";
import { sep } from "node:path";

/**
 * Kills every process whose working directory is inside `dir`: the safety net for a server
 * that left its process group, so removing a run's folder never leaves one running there.
 * Linux only (it reads /proc); elsewhere it does nothing.
 */
export async function killProcessesUnder(dir: string): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return 0;
  }
  let killed = 0;
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let cwd: string;
    try {
      cwd = await readlink(`/proc/${pid}/cwd`);
    } catch {
      continue;
    }
    if (cwd !== dir && !cwd.startsWith(dir + sep)) continue;
    try {
      process.kill(pid, "SIGKILL");
      killed++;
    } catch {
      // Gone already.
    }
  }
  return killed;
}
