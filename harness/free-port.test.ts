import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { ownerToken, startTime } from "../common/ownership.ts";
import { freePort, reservePortNumber } from "./free-port.ts";

/** The reservation file of `port` (the tests run without SCENARIO_APP_TMPDIR). */
const reservation = (port: number) => join(tmpdir(), `scenario-harness-ports-${process.getuid?.() ?? "user"}`, String(port));

describe("a free port", () => {
  it("is reserved until released, so no other harness is handed it before the app listens on it", async () => {
    const { port, release } = await freePort();
    expect(await reservePortNumber(port)).toBe("taken");
    await release();
    expect(await reservePortNumber(port)).toBe("reserved");
    await release();
  });

  it("reserved by a process that died is taken over", async () => {
    const { port, release } = await freePort();
    const exited = execa("true");
    await exited;
    await writeFile(reservation(port), String(exited.pid));
    expect(await reservePortNumber(port)).toBe("reserved");
    await release();
  });

  it("is reserved in the name of this process by its pid and start time, and a live process's reservation holds", async () => {
    const { port, release } = await freePort();
    expect(await readFile(reservation(port), "utf8")).toBe(ownerToken());
    await writeFile(reservation(port), ownerToken(process.ppid));
    expect(await reservePortNumber(port)).toBe("taken");
    await release();
  });

  it("reserved by a process that died, whose pid a later process now has, is taken over", async () => {
    const { port, release } = await freePort();
    // A harness that died long ago, its pid since handed to a live process (this one's parent) that started later.
    await writeFile(reservation(port), `${String(process.ppid)}.${String(Number(startTime(process.ppid)) - 1)}`);
    expect(await reservePortNumber(port)).toBe("reserved");
    expect(await readFile(reservation(port), "utf8")).toBe(ownerToken());
    await release();
  });
});
