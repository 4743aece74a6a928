import * as Effect from "effect/Effect";
import { ConfigError } from "../errors.ts";
import { installedPlaywright, playwrightMismatch } from "./version.ts";

/** Playwright's CLI as this package resolves it (see installedPlaywright); a ConfigError unless in the peer range. */
export const playwrightCli = Effect.fn("playwrightCli")(function* (configFile: string) {
  const installed = installedPlaywright();
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
  if (mismatch !== undefined) return yield* Effect.fail(new ConfigError({ config: configFile, detail: mismatch.detail }));
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
