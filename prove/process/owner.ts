import { readFileSync } from "node:fs";
import { alive } from "./alive.ts";

/**
 * When process `pid` started, in clock ticks since boot: field 22 of /proc/<pid>/stat. Undefined
 * where there is no /proc (macOS) or the process is gone.
 */
export function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // Field 2, the command's name, is in parentheses and may hold spaces: count from after its last ")", which is field 3.
    const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[22 - 3];
    return start !== undefined && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A process as the owner of a lock, a claim or a folder: `<pid>.<start time>`, or `<pid>` where
 * the start time is unknown. A pid alone does not name a process for long: once it is free the
 * system hands it out again (Linux wraps at pid_max, 32768 by default), and a lock whose dead
 * owner's pid now belongs to another process would look held forever.
 */
export function ownerToken(pid: number = process.pid): string {
  const start = startTime(pid);
  return start === undefined ? String(pid) : `${pid}.${start}`;
}

/** The pid and start time in an owner token; undefined when it is not one. */
export function parseOwner(token: string): { readonly pid: number; readonly start: string | undefined } | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(token.trim());
  if (match?.[1] === undefined) return undefined;
  const pid = Number(match[1]);
  return pid > 0 ? { pid, start: match[2] } : undefined;
}

/**
 * Whether the process a token names is running: its pid is alive and, where both are known, it
 * started when the token says (a live pid that started at another time is a newer process that
 * was handed the dead owner's pid).
 */
export function ownerAlive(token: string): boolean {
  const owner = parseOwner(token);
  if (owner === undefined || !alive(owner.pid)) return false;
  if (owner.start === undefined) return true;
  const now = startTime(owner.pid);
  return now === undefined || now === owner.start;
}
