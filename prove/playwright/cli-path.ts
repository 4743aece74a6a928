import { createRequire } from "node:module";
import * as Effect from "effect/Effect";
import { ConfigError } from "../errors.ts";

/**
 * Playwright's CLI as this package resolves it: the harness's `test` comes from that copy, and
 * `@playwright/test` is a peer dependency, so the config, the harness and the runner share it.
 */
export const playwrightCli = Effect.fn("playwrightCli")(function* (configFile: string) {
  return yield* Effect.try({
    try: () => createRequire(import.meta.url).resolve("@playwright/test/cli"),
    catch: () =>
      new ConfigError({
        config: configFile,
        detail: "@playwright/test cannot be found beside scenario-prover. Install it in the checkout holding the config: npm i -D @playwright/test (or pnpm add -D @playwright/test).",
      }),
  });
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
