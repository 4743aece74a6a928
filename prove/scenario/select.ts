import * as Effect from "effect/Effect";
import { AmbiguousScenario, ScenarioNotFound } from "../errors.ts";
import { fullTitle, type JsonSpec } from "../playwright/json-report.ts";

export interface SelectedTest {
  readonly title: string;
  readonly line: number;
}

/**
 * Picks the one test a proof runs from the tests Playwright listed in the scenario file:
 * `--grep` is a case-insensitive piece of the full title. None is ScenarioNotFound; more than
 * one is AmbiguousScenario, listing the titles.
 */
export function selectTest(
  specs: ReadonlyArray<JsonSpec>,
  file: string,
  grep: string | undefined,
): Effect.Effect<SelectedTest, ScenarioNotFound | AmbiguousScenario> {
  const unique = [...new Map(specs.map((spec) => [spec.id === "" ? `${spec.line}:${fullTitle(spec)}` : spec.id, spec])).values()];
  const matching = grep === undefined ? unique : unique.filter((spec) => fullTitle(spec).toLowerCase().includes(grep.toLowerCase()));
  const [only, ...others] = matching;
  if (only === undefined) {
    const detail =
      unique.length === 0
        ? "Playwright finds no test in it. Check that it calls test(...) and that the config's testDir and testMatch cover it."
        : `no test title contains --grep ${JSON.stringify(grep)}. Its tests are:\n${unique.map((spec) => `  - ${fullTitle(spec)}`).join("\n")}`;
    return Effect.fail(new ScenarioNotFound({ file, detail }));
  }
  if (others.length > 0) return Effect.fail(new AmbiguousScenario({ file, grep, titles: matching.map(fullTitle) }));
  return Effect.succeed({ title: fullTitle(only), line: only.line });
}
