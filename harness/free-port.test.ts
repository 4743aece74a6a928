import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { freePort, reservePortNumber } from "./free-port.ts";

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
    await writeFile(join(tmpdir(), `scenario-harness-ports-${process.getuid?.() ?? "user"}`, String(port)), String(exited.pid));
    expect(await reservePortNumber(port)).toBe("reserved");
    await release();
  });
});
