import { readdir, readFile, readlink } from "node:fs/promises";

/** Pids of live processes whose cwd, arguments or environment mention `text`. */
export async function processesMentioning(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const stat = await readFile(`/proc/${pid}/stat`, "latin1").catch(() => "");
    if (stat === "" || / Z /.test(stat.slice(stat.lastIndexOf(")")))) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => "");
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "latin1").catch(() => "");
    const environ = await readFile(`/proc/${pid}/environ`, "latin1").catch(() => "");
    if ([cwd, cmdline, environ].some((value) => value.includes(text))) found.push(pid);
  }
  return found;
}
