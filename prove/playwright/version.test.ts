import { readFileSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harnessOf, inRange, installedPlaywright, playwrightMismatch, playwrightPeerRange, scenarioPlaywright } from "./version.ts";

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
        "a Playwright outside that range can run your own tests, but not a proof.",
    });
    expect(playwrightMismatch(installedPlaywright(pathToFileURL(await checkoutWith("new", "1.65.1")).href), ">=1.65.0 <2")).toBeUndefined();
  });

  it("finds the copy beside the scenario-prover the config imports, not beside the one that runs; this one where the config's folder has none", async () => {
    const config = await checkoutWith("own", "1.65.1");
    // scenario-prover as pnpm links it: its peer beside its real folder, not in the folder's own node_modules.
    const store = join(work, "own/node_modules/.store/scenario-prover/node_modules");
    await mkdir(join(store, "scenario-prover"), { recursive: true });
    await writeFile(join(store, "scenario-prover/package.json"), '{ "name": "scenario-prover" }\n');
    await checkoutWith("own/node_modules/.store/scenario-prover", "1.65.2");
    await symlink(join(store, "scenario-prover"), join(work, "own/node_modules/scenario-prover"));
    expect(installedPlaywright(harnessOf(config))?.file).toBe(
      join(work, "own/node_modules/.store/scenario-prover/node_modules/@playwright/test/package.json"),
    );
    expect(harnessOf(join(work, "elsewhere", "scenarios.config.ts"))).toBe(pathToFileURL(join(import.meta.dirname, "version.ts")).href);
  });

  it("takes, for init run through npx before scenario-prover is installed in the repository, the repository's own copy, which its scenarios will share", async () => {
    const config = await checkoutWith("npx-old", "1.45.3");
    expect(scenarioPlaywright(config)?.version).toBe("1.45.3");
    // Where the repository has none, this scenario-prover's; where scenario-prover is installed, the copy beside it.
    await mkdir(join(work, "npx-none"));
    expect(scenarioPlaywright(join(work, "npx-none", "scenarios.config.ts"))).toEqual(installedPlaywright());
    expect(scenarioPlaywright(join(work, "own", "scenarios.config.ts"))?.version).toBe("1.65.2");
  });

  it("finds none where no @playwright/test is installed", async () => {
    await mkdir(join(work, "none"));
    expect(installedPlaywright(pathToFileURL(join(work, "none", "x.js")).href)).toBeUndefined();
  });
});
