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

/** The live processes working in `dir`, other than this one. */
async function processesUnder(dir: string): Promise<ReadonlyArray<number>> {
  const found: number[] = [];
  for (const entry of await readdir("/proc").catch(() => [])) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid !== process.pid && (await running(pid)) && (await worksIn(pid, dir))) found.push(pid);
  }
  return found;
}

/** Whether process `pid` still runs: neither gone nor a zombie waiting to be reaped. */
async function running(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "latin1").catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

/** Waits (at most a second) until the processes sent SIGKILL have died: a signal is delivered only once a process is next scheduled. */
async function untilGone(pids: ReadonlyArray<number>): Promise<void> {
  for (let waited = 0; waited < 1000; waited += 10) {
    if (!(await Promise.all(pids.map(running))).some(Boolean)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Kills every process working in `dir` (its cwd there, or the folder in its arguments or
 * environment) and waits until they are gone: the safety net for a server, runner or browser
 * that outlived its parent, so removing a run's folder never leaves one running, nor races one
 * still writing into it. A runner can start a process between one look at /proc and the kill, so
 * it looks again (a few times) until none is left. Linux only (it reads /proc); elsewhere it does
 * nothing.
 */
export async function killProcessesUnder(dir: string): Promise<number> {
  let killed = 0;
  for (let look = 0; look < 5; look++) {
    const pids = await processesUnder(dir);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
        killed++;
      } catch {
        // Gone already.
      }
    }
    await untilGone(pids);
  }
  return killed;
}
