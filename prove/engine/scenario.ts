import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import * as Effect from "effect/Effect";
import type { ScenarioOptions } from "../options/index.ts";
import { BadRepo, ConfigError, ScenarioNotFound } from "../errors.ts";
import { Git } from "../git/git.ts";
import { fileFilter } from "../playwright/cli-path.ts";
import { listScenario } from "../playwright/list.ts";
import { defaultConfigNames } from "./paths.ts";
import { Progress } from "../progress/progress.ts";
import { readAppConfig, readProofActionTimeout, readProofExpectTimeout, type AppConfig } from "../scenario/app-config.ts";
import { selectTest, type SelectedTest } from "../scenario/select.ts";

/** Where a proof runs: the invoking checkout (scenario, config, Playwright) and the repository under test. */
export interface Workplace {
  readonly cwd: string;
  /** The invoking checkout's top folder (cwd when it is not in a repository). */
  readonly root: string;
  /** The repository whose commits are compared. */
  readonly repo: string;
  readonly configFile: string;
  readonly scenarioFile: string;
}

export interface Scenario {
  /** Relative to the invoking checkout, with forward slashes. */
  readonly file: string;
  /** The file's absolute path. */
  readonly path: string;
  readonly sha256: string;
  readonly test: SelectedTest;
  readonly app: AppConfig;
  /** Playwright's CLI script as the config resolves it. */
  readonly cli: string;
  /** The runs' expect timeout in ms: --expect-timeout, else the config's proof.expectTimeout; undefined for the config's own. */
  readonly expectTimeout: number | undefined;
}

/**
 * The scenario config: --config as given, else the first of scenarios.config.ts and
 * playwright.config.ts found in cwd, then at the checkout's root.
 */
export function findConfig(options: ScenarioOptions, cwd: string, root: string) {
  if (options.config !== undefined) {
    const file = resolve(cwd, options.config);
    return existsSync(file)
      ? Effect.succeed(file)
      : Effect.fail(
          new ConfigError({
            config: options.config,
            detail: `there is no file at ${file}. Pass --config <file> naming your scenario config.`,
          }),
        );
  }
  const candidates = [...new Set([cwd, root])].flatMap((dir) => defaultConfigNames.map((name) => join(dir, name)));
  const found = candidates.find((file) => existsSync(file));
  if (found !== undefined) return Effect.succeed(found);
  return Effect.fail(
    new ConfigError({
      config: defaultConfigNames[0],
      detail: `none found (looked for ${candidates.join(", ")}). Run \`prove-scenario init\` in the app's folder to write one, or pass --config <file>.`,
    }),
  );
}

/** The repository under test: the checkout holding cwd, or --repo. */
export const repositoryUnderTest = Effect.fn("Proof.repository")(function* (options: Pick<ScenarioOptions, "repo">, cwd: string) {
  const git = yield* Git;
  if (options.repo === undefined) return yield* git.toplevel(cwd);
  const dir = resolve(cwd, options.repo);
  if (!existsSync(dir)) return yield* Effect.fail(new BadRepo({ repo: options.repo, dir, detail: `there is no folder at ${dir}` }));
  return yield* git
    .toplevel(dir)
    .pipe(Effect.mapError(() => new BadRepo({ repo: options.repo ?? dir, dir, detail: `${dir} is not in a git repository` })));
});

/** Finds the invoking checkout, the repository under test, the config and the scenario file. */
export const findWorkplace = Effect.fn("Proof.workplace")(function* (options: ScenarioOptions, cwd: string) {
  const git = yield* Git;
  const root = yield* git.toplevel(cwd).pipe(Effect.orElseSucceed(() => cwd));
  const configFile = yield* findConfig(options, cwd, root);
  const scenarioFile = resolve(cwd, options.scenario);
  if (!existsSync(scenarioFile)) {
    return yield* Effect.fail(
      new ScenarioNotFound({
        file: options.scenario,
        detail: `there is no file at ${scenarioFile}. Check the path; it is relative to ${cwd}.`,
      }),
    );
  }
  const repo = yield* repositoryUnderTest(options, cwd);
  return { cwd, root, repo, configFile, scenarioFile } satisfies Workplace;
});

/** What the listed config says every scenario runs with: the app, and the expect timeout (--expect-timeout over the config's proof.expectTimeout). */
export const configOfListing = Effect.fn("Proof.configOfListing")(function* (
  options: Pick<ScenarioOptions, "expectTimeout">,
  metadata: Parameters<typeof readAppConfig>[0],
  place: Pick<Workplace, "configFile" | "repo">,
) {
  const app = yield* readAppConfig(metadata, place.configFile, place.repo);
  const expectTimeout = options.expectTimeout ?? (yield* readProofExpectTimeout(metadata, place.configFile));
  yield* readProofActionTimeout(metadata, place.configFile);
  return { app, expectTimeout };
});

/** Lists the scenario's tests with Playwright, picks the one to run, and reads the app config. */
export const loadScenario = Effect.fn("Proof.scenario")(function* (options: ScenarioOptions, place: Workplace) {
  const progress = yield* Progress;
  const { report, cli } = yield* progress.step(
    { step: "scenario", detail: options.scenario },
    listScenario({ cwd: place.cwd, configFile: place.configFile, filters: [fileFilter(place.scenarioFile)], shownFile: options.scenario }),
  );
  const test = yield* selectTest(report.specs, options.scenario, options.grep);
  const { app, expectTimeout } = yield* configOfListing(options, report.metadata, place);
  const bytes = yield* Effect.promise(() => readFile(place.scenarioFile));
  return {
    file: relative(place.root, place.scenarioFile).split(sep).join("/"),
    path: place.scenarioFile,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    test,
    app,
    cli,
    expectTimeout,
  } satisfies Scenario;
});
