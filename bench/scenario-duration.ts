import { resolve } from "node:path";
import { execa } from "execa";
import { median, type Figure } from "./figure.ts";

interface Result {
  readonly status: string;
  readonly duration: number;
}
interface Suite {
  readonly suites?: ReadonlyArray<Suite>;
  readonly specs: ReadonlyArray<{ readonly tests: ReadonlyArray<{ readonly results: ReadonlyArray<Result> }> }>;
}

function results(suites: ReadonlyArray<Suite>): Result[] {
  return suites.flatMap((suite) => [
    ...suite.specs.flatMap((spec) => spec.tests.flatMap((test) => test.results)),
    ...results(suite.suites ?? []),
  ]);
}

/** How long one scenario takes from the app's boot to its teardown: `runs` runs in one Playwright run, the median. */
export async function scenarioFigures(scenario = "scenarios/agent-chat/replay-turn-streams.e2e.ts", runs = 5): Promise<Figure[]> {
  const run = await execa("node", ["node_modules/@playwright/test/cli.js", "test", scenario, "--reporter=json", `--repeat-each=${runs}`], {
    cwd: resolve(import.meta.dirname, ".."),
    reject: false,
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: "" },
  });
  const all = results((JSON.parse(run.stdout) as { suites: Suite[] }).suites);
  const failed = all.filter((result) => result.status !== "passed");
  if (all.length === 0 || failed.length > 0)
    throw new Error(`bench: ${failed.length} of ${all.length} runs of ${scenario} did not pass; fix the scenario first.`);
  return [{ figure: "scenario-boot-to-teardown-ms", value: median(all.map((result) => result.duration)), unit: "ms", goal: null }];
}
