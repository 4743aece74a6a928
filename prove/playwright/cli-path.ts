import { basename, dirname } from "node:path";
import * as Effect from "effect/Effect";
import { ConfigError } from "../errors.ts";
import { ownFolder, ownPlaywright, repositoryOf } from "./own-playwright.ts";
import { harnessOf, installedPlaywright, playwrightMismatch, upgradeCommand } from "./version.ts";

/** How a proof with the config `configFile` gets a Playwright in range and leaves the repository's own suite on its one. */
function wayOn(configFile: string): string {
  const dir = dirname(configFile);
  const own = ownPlaywright(dir, repositoryOf(dir));
  const leave =
    own.folder === "."
      ? `give the config's package its own: run \`${own.command}\` in the config's folder`
      : `give the scenarios a package of their own: move ${basename(configFile)} and its testDir into ${ownFolder}/ beside it, run \`${own.command}\` in the config's folder, and run the prover from ${ownFolder}/`;
  return `To leave your own suite on it, ${leave}; or put one in range in its place: ${upgradeCommand()}. Then run again.`;
}

/**
 * Playwright's CLI for the config: the @playwright/test of the scenario-prover the config imports (see
 * harnessOf), so runner, config and scenarios share one copy; a ConfigError unless in the peer range.
 */
export const playwrightCli = Effect.fn("playwrightCli")(function* (configFile: string) {
  const installed = installedPlaywright(harnessOf(configFile));
  if (installed === undefined) {
    return yield* Effect.fail(
      new ConfigError({
        config: configFile,
        detail:
          "@playwright/test cannot be found beside scenario-prover. Install it in the checkout holding the config: npm i -D @playwright/test (or pnpm add -D @playwright/test).",
      }),
    );
  }
  const mismatch = playwrightMismatch(installed);
  if (mismatch !== undefined)
    return yield* Effect.fail(new ConfigError({ config: configFile, detail: `${mismatch.detail} ${wayOn(configFile)}` }));
  return installed.cli;
});

/** A Playwright file filter matching exactly this file: its absolute path as an anchored pattern, then `:line`. */
export function fileFilter(file: string, line?: number): string {
  const pattern = `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
  return line === undefined ? pattern : `${pattern}:${line}`;
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A Playwright file filter matching every file under this folder. */
export function folderFilter(dir: string): string {
  return `^${escapeRegExp(dir.replace(/[\\/]+$/, ""))}[\\\\/]`;
}
