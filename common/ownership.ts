import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { link, mkdir, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Whether a process with this pid exists (one owned by another user counts). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** When process `pid` started, in clock ticks since boot (/proc/<pid>/stat); undefined without /proc or when it is gone. */
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
 * A process as the owner of a lock, claim, reservation or folder: `<pid>.<start time>`, or `<pid>`
 * where the start time is unknown. The start time tells a reused pid from its dead owner.
 */
export function ownerToken(pid: number = process.pid): string {
  const start = startTime(pid);
  return start === undefined ? String(pid) : `${pid}.${start}`;
}

/** The process an owner token names. */
export interface Owner {
  readonly pid: number;
  readonly start: string | undefined;
}

/** The pid and start time in an owner token (a bare pid is accepted); undefined when it is not one. */
export function parseOwner(token: string): Owner | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(token.trim());
  if (match?.[1] === undefined) return undefined;
  const pid = Number(match[1]);
  return pid > 0 ? { pid, start: match[2] } : undefined;
}

/** Whether the process a token names is running: its pid is alive and, where both are known, its start time matches. */
export function ownerAlive(token: string): boolean {
  const owner = parseOwner(token);
  if (owner === undefined || !alive(owner.pid)) return false;
  if (owner.start === undefined) return true;
  const now = startTime(owner.pid);
  return now === undefined || now === owner.start;
}

/** The start of the name of a thing this process owns, `<prefix><owner token>-`, from which ownerInName reads the owner back. */
export const ownedName = (prefix: string) => `${prefix}${ownerToken()}-`;

/** The owner token in a name that ownedName(prefix) starts; undefined for any other name. */
export function ownerInName(prefix: string, name: string): string | undefined {
  return name.startsWith(prefix) ? /^(\d+(?:\.\d+)?)-/.exec(name.slice(prefix.length))?.[1] : undefined;
}

/** What claiming a file found: it is now this process's, a live owner holds it, or a dead owner's claim could not be removed. */
export type LinkClaim = { readonly kind: "claimed" } | { readonly kind: "held"; readonly owner: Owner } | { readonly kind: "stale" };

/**
 * Claims `file` for this process, holding its owner token, atomically (a hard link to a file already
 * written, so no one reads it half-made); a dead owner's claim is taken over. Rejects when the folder cannot be written.
 */
export async function claimLink(file: string): Promise<LinkClaim> {
  const mine = `${file}.${randomUUID()}`;
  await writeFile(mine, ownerToken());
  try {
    for (let tries = 0; tries < 2; tries++) {
      const linked = await link(mine, file).then(
        () => true,
        (error: NodeJS.ErrnoException) => (error.code === "EEXIST" ? false : Promise.reject(error)),
      );
      if (linked) return { kind: "claimed" };
      const token = await readFile(file, "utf8").catch(() => "");
      const owner = parseOwner(token);
      if (owner !== undefined && ownerAlive(token)) return { kind: "held", owner };
      await unlink(file).catch(() => {});
    }
    return { kind: "stale" };
  } finally {
    await unlink(mine).catch(() => {});
  }
}

/** Lets a claim claimLink made go. */
export const releaseLink = (file: string): Promise<void> => unlink(file).catch(() => {});

/** The file in a directory lock that holds its owner's token. */
const lockOwnerFile = "pid";

/** How old a directory lock without an owner file, or a takeover guard, must be to count as left by a process that died making it. */
const orphanAfterMs = 10_000;

const olderThanOrphan = async (path: string) =>
  Date.now() - ((await stat(path).catch(() => undefined))?.mtimeMs ?? Date.now()) > orphanAfterMs;

/** A lock whose owner died, or that never got an owner file (its owner died in between) and is old enough. */
async function staleLock(dir: string): Promise<boolean> {
  const owner = await readFile(join(dir, lockOwnerFile), "utf8").catch(() => "");
  return owner !== "" ? !ownerAlive(owner) : await olderThanOrphan(dir);
}

/**
 * Removes a stale lock while holding `<lock>.takeover`, checking again inside it, so that of two
 * processes that saw it stale the second does not remove the lock the first has just taken.
 */
async function takeOver(dir: string): Promise<void> {
  const guard = `${dir}.takeover`;
  try {
    await mkdir(guard);
  } catch {
    if (await olderThanOrphan(guard)) await rm(guard, { recursive: true, force: true });
    return;
  }
  try {
    if (await staleLock(dir)) await rm(dir, { recursive: true, force: true });
  } finally {
    await rm(guard, { recursive: true, force: true });
  }
}

/**
 * Tries once to take the directory lock `dir` (made with mkdir, its owner's token in `pid`). False
 * when another holds it; a stale one is then removed so the next try can take it.
 */
export async function tryLockDirectory(dir: string): Promise<boolean> {
  try {
    await mkdir(dir);
  } catch {
    if (await staleLock(dir)) await takeOver(dir);
    return false;
  }
  await writeFile(join(dir, lockOwnerFile), ownerToken());
  return true;
}

/** Lets a directory lock go. */
export const unlockDirectory = (dir: string): Promise<void> => rm(dir, { recursive: true, force: true });
