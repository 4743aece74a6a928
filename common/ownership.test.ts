import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  claimLink,
  ownedName,
  ownerAlive,
  ownerInName,
  ownerToken,
  parseOwner,
  releaseLink,
  startTime,
  tryLockDirectory,
  unlockDirectory,
} from "./ownership.ts";

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "ownership-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A token of this test's parent process as a dead owner would have left it: its pid since handed to a process that started later. */
const reusedPid = () => `${String(process.ppid)}.${String(Number(startTime(process.ppid)) - 1)}`;

/** The pid of a process that has exited. */
async function exitedPid(): Promise<number> {
  const exited = execa("true");
  await exited;
  return exited.pid ?? 0;
}

describe("an owner token", () => {
  it("names this process by its pid and start time, and it is alive", () => {
    const token = ownerToken();
    expect(token).toMatch(new RegExp(`^${process.pid}\\.\\d+$`));
    expect(parseOwner(token)).toEqual({ pid: process.pid, start: startTime(process.pid) });
    expect(ownerAlive(token)).toBe(true);
  });

  it("of a live pid that started at another time is not alive: the pid was handed out again", () => {
    const start = Number(startTime(process.pid));
    expect(ownerAlive(`${process.pid}.${start + 1}`)).toBe(false);
    expect(ownerAlive(`${process.pid}.${start - 1}`)).toBe(false);
  });

  it("of a process that exited is not alive, with or without its start time", async () => {
    const child = execa("sleep", ["60"]);
    const token = ownerToken(child.pid);
    expect(ownerAlive(token)).toBe(true);
    child.kill("SIGKILL");
    await child.catch(() => {});
    expect(token).toMatch(/^\d+\.\d+$/);
    expect(ownerAlive(token)).toBe(false);
    expect(ownerAlive(String(child.pid))).toBe(false);
  });

  it("a bare pid, as earlier versions wrote, is alive while the pid is; anything else is no owner", () => {
    expect(ownerAlive(String(process.pid))).toBe(true);
    expect(parseOwner(" 123\n")).toEqual({ pid: 123, start: undefined });
    for (const bad of ["", "0", "abc", "12.x", "-3", "1.2.3"]) {
      expect(parseOwner(bad)).toBeUndefined();
      expect(ownerAlive(bad)).toBe(false);
    }
  });

  it("in a name starts it after the prefix, and is read back from it, a bare pid's too; other names have none", () => {
    const name = `${ownedName("scenario-prover-")}t-abc`;
    expect(name).toBe(`scenario-prover-${ownerToken()}-t-abc`);
    expect(ownerInName("scenario-prover-", name)).toBe(ownerToken());
    expect(ownerInName("scenario-prover-", "scenario-prover-123-demo-x")).toBe("123");
    for (const other of ["scenario-prover.lock-abc", "scenario-prover-restyled-x", "scenario-harness-ports-1000", "x-123-"]) {
      expect(ownerInName("scenario-prover-", other)).toBeUndefined();
    }
  });
});

describe("a link claim", () => {
  it("is this process's, named by its token, and held while it lives; released, it is free again, and no temporary file is left", async () => {
    const file = join(work, "claimed");
    expect(await claimLink(file)).toEqual({ kind: "claimed" });
    expect(await readFile(file, "utf8")).toBe(ownerToken());
    expect(await claimLink(file)).toEqual({ kind: "held", owner: parseOwner(ownerToken()) });
    await releaseLink(file);
    expect(await claimLink(file)).toEqual({ kind: "claimed" });
    await releaseLink(file);
    expect((await readdir(work)).filter((name) => name.startsWith("claimed"))).toEqual([]);
  });

  it.each([
    ["a process that exited, by its bare pid", "exited", async () => String(await exitedPid())],
    ["a process whose pid a later process now has", "reused", async () => reusedPid()],
    ["nothing a token can be", "garbled", async () => "garbled"],
  ])("left by %s is taken over", async (_case, name, left) => {
    const file = join(work, `left-${name}`);
    await writeFile(file, await left());
    expect(await claimLink(file)).toEqual({ kind: "claimed" });
    expect(await readFile(file, "utf8")).toBe(ownerToken());
    await releaseLink(file);
  });
});

describe("a directory lock", () => {
  it("is taken once, with this process's token in it, until it is let go", async () => {
    const dir = join(work, "lock-held");
    expect(await tryLockDirectory(dir)).toBe(true);
    expect(await readFile(join(dir, "pid"), "utf8")).toBe(ownerToken());
    expect(await tryLockDirectory(dir)).toBe(false);
    await unlockDirectory(dir);
    expect(await tryLockDirectory(dir)).toBe(true);
    await unlockDirectory(dir);
  });

  it("left by a process whose pid a later process now has is taken over on the next try", async () => {
    const dir = join(work, "lock-reused");
    await mkdir(dir);
    await writeFile(join(dir, "pid"), reusedPid());
    expect(await tryLockDirectory(dir)).toBe(false);
    expect([existsSync(dir), existsSync(`${dir}.takeover`)]).toEqual([false, false]);
    expect(await tryLockDirectory(dir)).toBe(true);
    await unlockDirectory(dir);
  });

  it("without an owner file is another's being made while it is new, and an orphan once it is old", async () => {
    const dir = join(work, "lock-orphan");
    await mkdir(dir);
    expect(await tryLockDirectory(dir)).toBe(false);
    expect(existsSync(dir)).toBe(true);
    await utimes(dir, new Date(0), new Date(0));
    expect(await tryLockDirectory(dir)).toBe(false);
    expect(await tryLockDirectory(dir)).toBe(true);
    await unlockDirectory(dir);
  });
});
