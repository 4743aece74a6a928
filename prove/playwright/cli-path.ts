import { createRequire } from "node:module";
import { Effect } from "effect";
import { ConfigError } from "../errors.ts";

/** Playwright's CLI as the config resolves it, so the config, the harness and the runner share one copy. */
export const playwrightCli = Effect.fn("playwrightCli")(function* (configFile: string) {
  return yield* Effect.try({
    try: () => createRequire(configFile).resolve("@playwright/test/cli"),
    catch: () =>
      new ConfigError({
        config: configFile,
        detail: "@playwright/test cannot be found from it. Install the dependencies of the checkout holding the config (pnpm install).",
      }),
  });
});

/** A Playwright file filter matching exactly this file: its absolute path as an anchored pattern, then `:line`. */
export function fileFilter(file: string, line?: number): string {
  const pattern = `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
  return line === undefined ? pattern : `${pattern}:${line}`;
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
