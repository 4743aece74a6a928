import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import * as Effect from "effect/Effect";
import type { ProveOptions, Shard } from "../options/index.ts";
import { ScenarioNotFound } from "../errors.ts";
import { Git } from "../git/git.ts";
import { fileFilter, folderFilter } from "../playwright/cli-path.ts";
import { fullTitle, type JsonSpec } from "../playwright/json-report.ts";
import { listScenario } from "../playwright/list.ts";
import { Progress } from "../progress/progress.ts";
import { configOfListing, findConfig, repositoryUnderTest, type Scenario } from "./scenario.ts";

/** Where a proof of several scenarios runs: as for one, with every file or folder named. */
export interface ManyPlace {
  readonly cwd: string;
  readonly root: string;
  readonly repo: string;
  readonly configFile: string;
  /** The files and folders named, absolute, in the order typed. */
  readonly paths: ReadonlyArray<string>;
}

/** One scenario of several: the scenario, and whether its file holds other tests (its report folder then names the test). */
export interface ListedScenario extends Scenario {
  readonly sharesFile: boolean;
}

/** Finds the checkout, the repository under test, the config and every scenario file or folder named. */
export const findManyPlace = Effect.fn("Proof.manyPlace")(function* (options: ProveOptions, cwd: string) {
  const git = yield* Git;
  const root = yield* git.toplevel(cwd).pipe(Effect.orElseSucceed(() => cwd));
  const configFile = yield* findConfig(options, cwd, root);
  const paths = options.scenarios.map((typed) => resolve(cwd, typed));
  const missing = options.scenarios.filter((_typed, index) => !existsSync(paths[index] ?? ""));
  if (missing.length > 0) {
    return yield* Effect.fail(
      new ScenarioNotFound({
        file: missing.join(", "),
        detail: `there is nothing at ${missing.length === 1 ? "that path" : "those paths"}. Check them; they are relative to ${cwd}.`,
      }),
    );
  }
  const repo = yield* repositoryUnderTest(options, cwd);
  return { cwd, root, repo, configFile, paths } satisfies ManyPlace;
});

const filterOf = (path: string) => (statSync(path).isDirectory() ? folderFilter(path) : fileFilter(path));

/** The scenarios' order: by file, then by line, so it does not depend on the order they were named in. */
const byFileThenLine = (a: { readonly file: string; readonly test: { readonly line: number; readonly title: string } }, b: typeof a) =>
  a.file < b.file
    ? -1
    : a.file > b.file
      ? 1
      : a.test.line - b.test.line || (a.test.title < b.test.title ? -1 : a.test.title > b.test.title ? 1 : 0);

/**
 * The i-th of n slices of the sorted list: contiguous, the first `length % n` slices one longer,
 * as Playwright shards its tests. Every scenario is in exactly one slice.
 */
export function shardSlice<T>(sorted: ReadonlyArray<T>, shard: Shard | undefined): ReadonlyArray<T> {
  if (shard === undefined) return sorted;
  const size = Math.floor(sorted.length / shard.total);
  const longer = sorted.length % shard.total;
  const start = (shard.index - 1) * size + Math.min(shard.index - 1, longer);
  return sorted.slice(start, start + size + (shard.index <= longer ? 1 : 0));
}

/**
 * Every test of the files and folders named, with `--grep` a case-insensitive piece of its full
 * title; `sharesFile` when its file holds other tests, --grep or not.
 */
function testsOf(specs: ReadonlyArray<JsonSpec>, rootDir: string, grep: string | undefined) {
  const unique = [...new Map(specs.map((spec) => [`${spec.file}:${spec.line}:${fullTitle(spec)}`, spec])).values()];
  const matching = grep === undefined ? unique : unique.filter((spec) => fullTitle(spec).toLowerCase().includes(grep.toLowerCase()));
  const inFile = (file: string) => unique.filter((spec) => spec.file === file).length;
  return matching.map((spec) => ({
    path: resolve(rootDir, spec.file),
    test: { title: fullTitle(spec), line: spec.line },
    sharesFile: inFile(spec.file) > 1,
  }));
}

/**
 * Lists every test of the files and folders with one Playwright listing, reads the app config
 * once, and returns them sorted (the whole list; the shard is cut by the caller).
 */
export const loadScenarios = Effect.fn("Proof.scenarios")(function* (options: ProveOptions, place: ManyPlace) {
  const progress = yield* Progress;
  const shown = options.scenarios.join(" ");
  const { report, cli } = yield* progress.step(
    { step: "scenario", detail: shown },
    listScenario({ cwd: place.cwd, configFile: place.configFile, filters: place.paths.map(filterOf), shownFile: shown }),
  );
  const tests = testsOf(report.specs, report.rootDir ?? place.root, options.grep);
  if (tests.length === 0) {
    return yield* Effect.fail(
      new ScenarioNotFound({
        file: shown,
        detail: `no test title contains --grep ${JSON.stringify(options.grep)}. Leave --grep out, or pass a piece of a title.`,
      }),
    );
  }
  const { app, expectTimeout } = yield* configOfListing(options, report.metadata, place);
  const hashes = new Map<string, string>();
  for (const path of new Set(tests.map((test) => test.path))) {
    const bytes = yield* Effect.promise(() => readFile(path));
    hashes.set(path, createHash("sha256").update(bytes).digest("hex"));
  }
  return tests
    .map((test): ListedScenario => ({
      file: relative(place.root, test.path).split(sep).join("/"),
      path: test.path,
      sha256: hashes.get(test.path) ?? "",
      test: test.test,
      app,
      cli,
      expectTimeout,
      sharesFile: test.sharesFile,
    }))
    .sort(byFileThenLine);
});
