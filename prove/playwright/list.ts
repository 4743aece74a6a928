import * as Effect from "effect/Effect";
import { execa } from "execa";
import { ConfigError, ScenarioNotFound } from "../errors.ts";
import { cleanMessage, tail } from "../outcome/error-text.ts";
import { playwrightCli } from "./cli-path.ts";
import { parseJsonReport, type JsonReport } from "./json-report.ts";

export interface ListInput {
  readonly cwd: string;
  readonly configFile: string;
  /** Playwright file filters: `fileFilter` of a file, or `folderFilter` of a folder. */
  readonly filters: ReadonlyArray<string>;
  /** The scenarios as the user named them, for messages. */
  readonly shownFile: string;
}

/** An error's output without the stack frames of Node and Playwright: the ones left point into the config. */
const withoutRunnerFrames = (text: string) =>
  text
    .split("\n")
    .filter((line) => !/^\s+at .*(node:internal|node_modules)/.test(line))
    .join("\n");

/**
 * Lists the scenarios' tests, and the config with the app in its metadata, with `playwright test --list`.
 * Fails with ConfigError when the config does not load, ScenarioNotFound when no test is covered.
 */
export const listScenario = Effect.fn("Playwright.list")(function* (input: ListInput) {
  const cli = yield* playwrightCli(input.configFile);
  const run = yield* Effect.promise((signal) =>
    execa(process.execPath, [cli, "test", "--list", "--reporter=json", "--config", input.configFile, ...input.filters], {
      cwd: input.cwd,
      env: { FORCE_COLOR: "0", PLAYWRIGHT_JSON_OUTPUT_FILE: "" },
      reject: false,
      stdin: "ignore",
      cancelSignal: signal,
    }),
  );
  const report: JsonReport | undefined = parseJsonReport(run.stdout);
  if (report === undefined) {
    return yield* Effect.fail(
      new ConfigError({
        config: input.configFile,
        detail: `Playwright could not load it; fix this first:\n${tail(withoutRunnerFrames(`${run.stderr}\n${run.stdout}`))}`,
      }),
    );
  }
  const loadErrors = report.errors.filter((error) => !error.message.includes("No tests found"));
  if (loadErrors.length > 0) {
    const shown = loadErrors
      .map(
        (error) =>
          `${cleanMessage(error.message)}${error.location === undefined ? "" : `\n  at ${error.location.file}:${error.location.line}`}`,
      )
      .join("\n");
    return yield* Effect.fail(
      new ConfigError({
        config: input.configFile,
        detail: `Playwright could not load the scenario or the config; fix this first:\n${shown}`,
      }),
    );
  }
  if (report.specs.length === 0) {
    return yield* Effect.fail(
      new ScenarioNotFound({
        file: input.shownFile,
        detail: `the config ${input.configFile} does not run it (testDir ${report.rootDir ?? "?"}, and testMatch must match the file name), or it holds no test. Move it under testDir or pass --config for the config that covers it.`,
      }),
    );
  }
  return { report, cli };
});
