// Measures how long one scenario takes from boot to teardown: runs it N times in one
// Playwright run and prints each run's duration (fixtures included) and the median.
// Usage: pnpm bench [scenario-file] [runs]
import { execa } from "execa";

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

const scenario = process.argv[2] ?? "scenarios/agent-chat/replay-turn-streams.e2e.ts";
const runs = Number(process.argv[3] ?? "5");
const run = await execa("pnpm", ["exec", "playwright", "test", scenario, "--reporter=json", `--repeat-each=${runs}`], {
  reject: false,
});
const all = results((JSON.parse(run.stdout) as { suites: Suite[] }).suites);
const failed = all.filter((result) => result.status !== "passed");
if (all.length === 0 || failed.length > 0) {
  console.error(`bench: ${failed.length} of ${all.length} runs did not pass; fix the scenario first.`);
  process.exit(1);
}
const durations = all.map((result) => result.duration).sort((a, b) => a - b);
const median = durations[Math.floor(durations.length / 2)] ?? 0;
console.log(`${scenario}: ${runs} runs, boot to teardown (ms): ${durations.join(", ")}; median ${median}`);
