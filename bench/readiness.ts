import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { readyAtAnnotation } from "../common/contract.ts";
import { median, rounded, type Figure } from "./figure.ts";
import { results, type Result, type Suite } from "./playwright-results.ts";

function annotation(result: Result, type: string): number {
  return Number(result.annotations.find((item) => item.type === type)?.description);
}

/**
 * How late the harness notices an app is up: the harness's readiness test app, which prints
 * nothing and listens after start delays spread over a second or so, booted through the real
 * Playwright fixtures; per boot, the harness's ready-at annotation minus the app's own
 * `readiness-app:listening-at`; the median over `runs` rounds of every delay. Beside it, when the
 * app had finished answering the harness's GET of its ready path: the part of the figure spent
 * before the answer was written, which includes the app's own first request (slow in a fresh
 * process on a busy machine).
 */
export async function readinessFigures(runs = 3): Promise<Figure[]> {
  const root = resolve(import.meta.dirname, "..");
  const output = await mkdtemp(join(tmpdir(), "bench-readiness-"));
  try {
    const run = await execa(
      "node",
      [
        "node_modules/@playwright/test/cli.js",
        "test",
        "--config",
        "harness/test-apps/readiness-app/playwright.config.ts",
        "--grep",
        "A quiet app is seen ready",
        "--reporter=json",
        `--repeat-each=${runs}`,
        "--output",
        output,
      ],
      { cwd: root, reject: false, env: { PLAYWRIGHT_JSON_OUTPUT_FILE: "" } },
    );
    const all = results((JSON.parse(run.stdout) as { suites: Suite[] }).suites);
    const failed = all.filter((result) => result.status !== "passed");
    if (all.length === 0 || failed.length > 0)
      throw new Error(`bench: ${failed.length} of ${all.length} boots of the readiness app did not pass; fix them first.`);
    const since = (type: string) => all.map((result) => annotation(result, type) - annotation(result, "readiness-app:listening-at"));
    const noticed = since(readyAtAnnotation);
    const answered = since("readiness-app:answered-at");
    if ([...noticed, ...answered].some((lag) => !Number.isFinite(lag))) {
      throw new Error("bench: a boot of the readiness app lacks its ready-at, listening-at or answered-at annotation.");
    }
    return [
      { figure: "readiness-ms", value: median(noticed), unit: "ms", goal: 20 },
      { figure: "readiness-app-answered-ms", value: median(answered), unit: "ms", goal: null },
    ];
  } finally {
    await rm(output, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const { figure, value, unit, goal } of await readinessFigures()) {
    console.log(JSON.stringify({ figure, value: rounded(value, unit), unit, goal }));
  }
}
