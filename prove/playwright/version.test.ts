import { readFileSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inRange, installedPlaywright, playwrightMismatch, playwrightPeerRange } from "./version.ts";

let work: string;

/** A checkout whose node_modules holds @playwright/test at `version` (its package.json and CLI script, as npm lays them out); returns a file in it to resolve from. */
async function checkoutWith(name: string, version: string): Promise<string> {
  const dir = join(work, name);
  const pkg = join(dir, "node_modules", "@playwright", "test");
  await mkdir(pkg, { recursive: true });
  const manifest = {
    name: "@playwright/test",
    version,
    exports: { ".": "./index.js", "./cli": "./cli.js", "./package.json": "./package.json" },
    bin: { playwright: "cli.js" },
  };
  await writeFile(join(pkg, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(pkg, "cli.js"), "");
  await writeFile(join(dir, "scenarios.config.ts"), "");
  return join(dir, "scenarios.config.ts");
}

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "prove-playwright-version-")));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("the Playwright version a proof runs", () => {
  it("takes the range from scenario-prover's package.json, which this checkout's Playwright is in", () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as {
      peerDependencies: Record<string, string>;
    };
    expect(playwrightPeerRange()).toBe(manifest.peerDependencies["@playwright/test"]);
    const own = realpathSync(join(import.meta.dirname, "../../node_modules/@playwright/test/package.json"));
    expect(installedPlaywright()).toMatchObject({
      file: own,
      version: (JSON.parse(readFileSync(own, "utf8")) as { version: string }).version,
    });
    expect(playwrightMismatch()).toBeUndefined();
  });

  it.each([
    ["1.38.0", false],
    ["1.64.9", false],
    ["1.65.0", true],
    ["1.65.1", true],
    ["1.66.0-alpha-2025-11-01", true],
    ["1.99.3", true],
    ["2.0.0", false],
    ["not a version", false],
  ])("%s is in >=1.65.0 <2: %s", (version, inside) => {
    expect(inRange(version, ">=1.65.0 <2")).toBe(inside);
  });

  it("reads the version of the copy whose CLI would run, and names it, the range and the fix", async () => {
    const from = await checkoutWith("old", "1.38.0");
    const installed = installedPlaywright(pathToFileURL(from).href);
    const file = join(work, "old/node_modules/@playwright/test/package.json");
    expect(installed).toEqual({ cli: join(work, "old/node_modules/@playwright/test/cli.js"), file, version: "1.38.0" });
    expect(playwrightMismatch(installed, ">=1.65.0 <2")).toEqual({
      file,
      detail:
        `the @playwright/test that runs the proof (${file}) is version 1.38.0, and scenario-prover needs >=1.65.0 <2 (its peer dependency): ` +
        "a Playwright outside that range can run your own tests, but not a proof. Install one in that range in the checkout holding the config: " +
        "npm i -D @playwright/test@1.65 (or pnpm add -D @playwright/test@1.65, yarn add -D @playwright/test@1.65), then run again.",
    });
    expect(playwrightMismatch(installedPlaywright(pathToFileURL(await checkoutWith("new", "1.65.1")).href), ">=1.65.0 <2")).toBeUndefined();
  });

  it("finds none where no @playwright/test is installed", async () => {
    await mkdir(join(work, "none"));
    expect(installedPlaywright(pathToFileURL(join(work, "none", "x.js")).href)).toBeUndefined();
  });
});
