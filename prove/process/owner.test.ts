import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { ownerAlive, ownerToken, parseOwner, startTime } from "./owner.ts";

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
});
