import { readdir, readFile, readlink } from "node:fs/promises";
import { sep } from "node:path";

async function worksIn(pid: number, dir: string): Promise<boolean> {
  const inside = (path: string) => path === dir || path.startsWith(dir + sep);
  const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => "");
  if (inside(cwd)) return true;
  // A runner or browser started for the run names the folder in its arguments or its TMPDIR.
  for (const file of ["cmdline", "environ"]) {
    const text = await readFile(`/proc/${pid}/${file}`, "latin1").catch(() => "");
    if (text.includes(dir + sep)) return true;
  }
  return false;
}

/**
 * Kills every process working in `dir` (its cwd there, or the folder in its arguments or
 * environment): the safety net for a server, runner or browser that outlived its parent, so
 * removing a run's folder never leaves one running. Linux only (it reads /proc); elsewhere it
 * does nothing.
 */
export async function killProcessesUnder(dir: string): Promise<number> {
  const entries = await readdir("/proc").catch(() => []);
  let killed = 0;
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid || !(await worksIn(pid, dir))) continue;
    try {
      process.kill(pid, "SIGKILL");
      killed++;
    } catch {
      // Gone already.
    }
  }
  return killed;
}
