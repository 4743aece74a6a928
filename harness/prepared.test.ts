import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { harnessErrorTag, preparedFileEnv, preparedStop } from "../common/contract.ts";
import { untilPrepared } from "./prepared.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "prepared-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** As the prover writes it: whole when it appears. */
async function settle(file: string, text: string) {
  await writeFile(`${file}.new`, text);
  await rename(`${file}.new`, file);
}

describe("a run started while its side installs", () => {
  it("starts the app once the prover writes the prepared file, however late", async () => {
    const file = join(dir, "prepared");
    let settled = false;
    const waiting = untilPrepared({ [preparedFileEnv]: file }).then(() => (settled = true));
    // Still waiting after the watcher has had its turn: nothing is there yet.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await settle(file, "");
    await waiting;
    expect(settled).toBe(true);
  });

  it("starts at once when the file is already there, and outside a proof waits for nothing", async () => {
    const file = join(dir, "prepared");
    await writeFile(file, "");
    await expect(untilPrepared({ [preparedFileEnv]: file })).resolves.toBeUndefined();
    await expect(untilPrepared({})).resolves.toBeUndefined();
  });

  it("ends without starting the app when the side cannot run", async () => {
    const file = join(dir, "prepared");
    const waiting = untilPrepared({ [preparedFileEnv]: file });
    await settle(file, preparedStop);
    await expect(waiting).rejects.toThrow(harnessErrorTag("boot"));
  });
});
