import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { describe, expect, it } from "vitest";
import type { JsonSpec } from "../playwright/json-report.ts";
import { selectTest } from "./select.ts";

const spec = (title: string, line: number, titlePath: string[] = []): JsonSpec => ({
  id: `id-${line}`,
  title,
  titlePath,
  file: "s.e2e.ts",
  line,
  tests: [],
});
const specs = [
  spec("shows the stop button", 3),
  spec("hides it at the end", 9, ["streaming"]),
  spec("hides it at the end", 9, ["streaming"]),
];

function pick(grep: string | undefined, from: ReadonlyArray<JsonSpec> = specs) {
  const exit = Effect.runSyncExit(selectTest(from, "s.e2e.ts", grep));
  return Exit.isSuccess(exit) ? exit.value : Exit.findErrorOption(exit);
}

describe("picking the one test a proof runs", () => {
  it.each([
    ["the only test of a file", undefined, [spec("only", 4)], { title: "only", line: 4 }],
    ["a test whose title holds --grep, in any case", "STOP button", specs, { title: "shows the stop button", line: 3 }],
    ["a test inside a describe, by its describe title", "streaming", specs, { title: "streaming › hides it at the end", line: 9 }],
  ])("picks %s", (_case, grep, from, picked) => {
    expect(pick(grep, from)).toEqual(picked);
  });

  it("names the titles when several match, and when none does", () => {
    expect(pick(undefined)).toMatchObject({
      value: { _tag: "AmbiguousScenario", titles: ["shows the stop button", "streaming › hides it at the end"] },
    });
    expect(pick("reload")).toMatchObject({
      value: {
        _tag: "ScenarioNotFound",
        detail: 'no test title contains --grep "reload". Its tests are:\n  - shows the stop button\n  - streaming › hides it at the end',
      },
    });
  });
});
