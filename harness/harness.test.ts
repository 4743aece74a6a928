import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, watch } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  failureScreenshotAttachment,
  measureAnnotation,
  measureMetrics,
  measureTraceEnv,
  pageEventsAnnotation,
  serverLogAttachment,
  strayCallsAnnotation,
  type MeasureMetadata,
  type PageEventsMetadata,
} from "../common/contract.ts";

interface JsonReport {
  readonly suites: ReadonlyArray<JsonSuite>;
  readonly errors: ReadonlyArray<{ readonly message: string }>;
}
interface JsonSuite {
  readonly suites?: ReadonlyArray<JsonSuite>;
  readonly specs: ReadonlyArray<{
    readonly title: string;
    readonly tests: ReadonlyArray<{ readonly projectName: string; readonly results: ReadonlyArray<JsonResult> }>;
  }>;
}
interface JsonResult {
  readonly status: string;
  readonly errors: ReadonlyArray<{ readonly message?: string }>;
  readonly attachments: ReadonlyArray<{ readonly name: string; readonly body?: string; readonly path?: string }>;
  readonly annotations: ReadonlyArray<{ readonly type: string; readonly description?: string }>;
}

function specs(suites: ReadonlyArray<JsonSuite>): Array<JsonSuite["specs"][number]> {
  return suites.flatMap((suite) => [...suite.specs, ...specs(suite.suites ?? [])]);
}

// eslint-disable-next-line no-control-regex -- Playwright colours its messages with ANSI escapes, which start with ESC.
const plain = (text: string | undefined) => (text ?? "").replace(/\u001b\[[0-9;]*m/g, "");

/** One test's title and its result, in a project's run. */
interface TestRun {
  readonly title: string;
  readonly result: JsonResult;
}

/**
 * Every test app, one project per app config (harness/test-apps/all.config.ts), in one run of the
 * real Playwright CLI, its JSON report read once; each test below asserts on its own project's
 * results. The runner's environment has secrets and package manager settings planted, which
 * env-app's test checks the app never sees.
 */
let output = "";
let report: JsonReport;
let exitCode: number | undefined;
/** The run's stderr, shown when its exit code is not the one expected. */
let stderr = "";

/** Where processes-app's processes note their pids, as <role>-<port>.pid: not in the output folder, which Playwright empties. */
let pids = "";

beforeAll(async () => {
  output = await mkdtemp(join(tmpdir(), "harness-test-"));
  pids = await mkdtemp(join(tmpdir(), "harness-test-pids-"));
  const run = await execa(
    "pnpm",
    ["exec", "playwright", "test", "--config", "harness/test-apps/all.config.ts", "--reporter=json", "--output", output],
    {
      reject: false,
      env: {
        OPENAI_API_KEY: "sk-planted-0123456789abcdef",
        GH_TOKEN: "ghp_planted0123456789abcdef",
        npm_config_planted_setting: "true",
        PNPM_PLANTED: "1",
        PROCESSES_APP_PIDS: pids,
        // measure-app's blocks each record their trace, as on a performance proof's runs.
        [measureTraceEnv]: "1",
      },
    },
  );
  exitCode = run.exitCode;
  stderr = run.stderr;
  report = JSON.parse(run.stdout) as JsonReport;
  // Nineteen projects, twenty-eight tests, each with its own app and browser, some waiting out a slow app on purpose: the time of
  // twelve runs before, in one hook.
}, 600_000);

afterAll(async () => {
  await Promise.all([output, pids].map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A project's tests in file order, each with its one result (no retries). */
function project(name: string) {
  const runs: TestRun[] = specs(report.suites).flatMap((spec) =>
    spec.tests.filter((test) => test.projectName === name).flatMap((test) => test.results.map((result) => ({ title: spec.title, result }))),
  );
  if (runs.length === 0) throw new Error(`no test ran in project ${name}`);
  return { results: runs.map((run) => run.result), runs };
}

/** Each passing test's status and error messages: what a project whose run would exit 0 has. */
const passedAlone = (results: ReadonlyArray<JsonResult>) =>
  results.map((result) => [result.status, result.errors.map((error) => error.message)]);

/** The status of each test of a project, by title, with its first error's first line. */
function statuses(runs: ReadonlyArray<TestRun>): Record<string, [string, string | undefined]> {
  return Object.fromEntries(
    runs.map(({ title, result }) => [title, [result.status, plain(result.errors[0]?.message).split("\n")[0] || undefined]]),
  );
}

/** An attachment's body (the JSON reporter holds it in base64). */
function attachment(result: JsonResult | undefined, name: string): Buffer {
  const found = result?.attachments.find((candidate) => candidate.name === name);
  if (found?.body !== undefined) return Buffer.from(found.body, "base64");
  if (found?.path !== undefined) return readFileSync(found.path);
  throw new Error(`no attachment ${name}`);
}

/** Whether a process is still running: there, and not a zombie waiting to be reaped. */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

/** A PNG's size, and how many of its pixels are pure red and pure blue. */
async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  let blue = 0;
  for (let at = 0; at < data.length; at += 3) {
    if (data[at] === 255 && data[at + 1] === 0 && data[at + 2] === 0) red++;
    if (data[at] === 0 && data[at + 1] === 0 && data[at + 2] === 255) blue++;
  }
  return { width: info.width, height: info.height, red, blue };
}

const clickTests = {
  config: "A click right after app.open() counts",
  locator: "A click right after app.open() with until a locator counts",
  expression: "A click right after app.open() with until an expression counts",
};

describe("the harness", () => {
  it("runs every test app's project with no error of the run's own, failing only the tests that fail on purpose", () => {
    expect(report.errors).toEqual([]);
    expect(exitCode, stderr).toBe(1);
  });

  it("keeps the runner's secrets, home and package manager settings away from the app, and shares its package caches", () => {
    expect(passedAlone(project("env-app").results)).toEqual([["passed", []]]);
  });

  it("hands a stdio app the replay peer's command or its launcher's path, and holds the peer's stream at a pause until the scenario resumes it", () => {
    const { results } = project("stdio-app");
    expect(passedAlone(results)).toEqual([
      ["passed", []],
      ["passed", []],
    ]);
    expect(results[0]?.attachments.map((attachment) => attachment.name)).toEqual(["screenshot:mid-stream", "screenshot:done"]);
  });

  it("waits for an app's ready path to answer while the app warms up, and stops asking once it has", () => {
    expect(passedAlone(project("readiness-app").results)).toEqual([["passed", []]]);
  });

  it("opens the app at the config's app.host, so a dev server that serves its dev resources to localhost only hydrates the page", () => {
    expect(passedAlone(project("origin-app").results)).toEqual([["passed", []]]);
  });

  it("fails a page whose dev resources the app refuses at the default host, keeping the server's line that says why", () => {
    const { results } = project("origin-app default-host");
    expect(results.map((result) => result.status)).toEqual(["failed"]);
    expect(plain(results[0]?.errors[0]?.message)).toContain("element(s) not found");
    const excerpt =
      results[0]?.annotations.find((annotation) => annotation.type === "scenario-harness:server-log-excerpt")?.description ?? "";
    expect(excerpt.split("\n")).toContain(
      '⚠ Blocked cross-origin request to dev resource /_dev/client.js from "127.0.0.1". Open the app at localhost.',
    );
    // What the app printed once the harness stopped it is in server.log, not in the excerpt of what it printed while the test ran.
    expect(excerpt).not.toContain("stopped by SIGTERM");
    // The browser's side of it: the script's 403, before the test ended, noted once (not again by Chromium's console line for it).
    const noted = results[0]?.annotations.find((annotation) => annotation.type === pageEventsAnnotation)?.description ?? "{}";
    const { events, testEnd } = JSON.parse(noted) as PageEventsMetadata;
    expect(
      events.map(({ kind, method, url, text, at }) => [kind, method, url?.replace(/:\d+\//, ":<port>/"), text, at <= testEnd].join(" ")),
    ).toEqual(["error-status GET http://127.0.0.1:<port>/_dev/client.js 403 Forbidden true"]);
    expect(results[0]?.attachments.map((attachment) => attachment.name)).toContain("server.log");
  });

  it("starts the app's services (a PostgreSQL cluster, an API) and runs app.prepare's migration and seed before the app, which the scenario reads and writes", () => {
    expect(passedAlone(project("services-app").results)).toEqual([["passed", []]]);
  });

  it("fails boot when an app.prepare command fails, naming it as written, its exit code and its output", () => {
    const { results } = project("services-app failing-prepare");
    expect(results.map((result) => result.status)).toEqual(["failed"]);
    expect(plain(results[0]?.errors[0]?.message).split("\n").slice(0, 3)).toEqual([
      "HarnessError: [scenario-harness:boot] app.prepare's `psql {db.url} -Xq -v ON_ERROR_STOP=1 -f seed.sql` exited with code 3: " +
        "fix the command in the scenario config, or the app's migration. Its output:",
      'psql:seed.sql:1: ERROR:  relation "chats" does not exist',
      "LINE 1: INSERT INTO chats (title) VALUES ('Seeded by app.prepare');",
    ]);
  });

  it("keeps boot and a first render longer than the test's own timeout out of the test's time", () => {
    const { results } = project("compile-app");
    expect(passedAlone(results)).toEqual([["passed", []]]);
    // The app answers its first GET of / in full 9 s after it listens: readiness waited for it, more than the test's 8 s.
    const bootMs = results[0]?.annotations.find((annotation) => annotation.type === "scenario-harness:boot-ms")?.description;
    expect(Number(bootMs)).toBeGreaterThanOrEqual(9_000);
  });

  it("opens a page and waits until it is interactive, by the config's app.interactive or by until, so a click made at once counts", () => {
    const { runs } = project("hydrate-app");
    expect(statuses(runs.filter((run) => Object.values(clickTests).includes(run.title)))).toEqual({
      [clickTests.config]: ["passed", undefined],
      [clickTests.locator]: ["passed", undefined],
      [clickTests.expression]: ["passed", undefined],
    });
  });

  it("loses a click made right after app.open() on a page not yet hydrated when nothing says when it is interactive", () => {
    expect(statuses(project("hydrate-app no-wait").runs)).toEqual({
      [clickTests.config]: ["failed", "Error: expect(locator).toHaveText(expected) failed"],
    });
  });

  it("fails app.open() whose app.interactive never becomes true, saying what it waited for and which key to change", () => {
    expect(statuses(project("hydrate-app never").runs)).toEqual({
      [clickTests.config]: [
        "failed",
        "Error: app.open(\"/\") waited 3000 ms for `window.__hydrated === 'never'` to be truthy in the page (app.interactive), and it never was. " +
          "Check that app.interactive in the scenario config is an expression that becomes truthy once the page is interactive, or raise app.ready.timeout if the page takes longer.",
      ],
    });
  });

  it("takes screenshots of the page and of an element without frameworks' dev tool launchers, keeping error overlays", async () => {
    const { runs } = project("hydrate-app");
    const [result, failed] = runs.filter((run) => !Object.values(clickTests).includes(run.title)).map((run) => run.result);
    expect([result?.status, failed?.status]).toEqual(["passed", "failed"]);
    expect(result?.attachments.map((entry) => entry.name)).toEqual(["screenshot:page", "screenshot:card", "card-box"]);
    const box = JSON.parse(attachment(result, "card-box").toString()) as { width: number; height: number };
    // The launchers are red blocks, one over the card; the error overlay is a blue block beside it.
    expect(await pixels(attachment(result, "screenshot:page"))).toEqual({ width: 1280, height: 720, red: 0, blue: 200 * 100 });
    expect(await pixels(attachment(result, "screenshot:card"))).toEqual({ width: box.width, height: box.height, red: 0, blue: 0 });
    // A failed test gets the harness's failure screenshot, drawn the same way, beside Playwright's own, which shows the launchers.
    expect(await pixels(attachment(failed, "scenario-harness:failure-screenshot"))).toEqual({
      width: 1280,
      height: 720,
      red: 0,
      blue: 200 * 100,
    });
    expect((await pixels(attachment(failed, "screenshot"))).red).toBeGreaterThan(0);
  });

  it("fails a scenario whose own steps pass when its app sends a request the transcript does not expect, with the diff", () => {
    const { results } = project("wrong-transcript");
    expect(results.map((result) => result.status)).toEqual(["failed"]);
    const message = results.flatMap((result) => result.errors.map((error) => error.message ?? "")).join("\n");
    expect(message).toContain("[scenario-harness:replay-mismatch]");
    expect(message).toContain("POST /v1/chat/completions");
    expect(message).toContain('body.messages[0].content: expected "Good morning", got "Hello there"');
    expect(results[0]?.attachments.map((attachment) => attachment.name)).toContain("server.log");
  });

  it("routes the provider's own URL to the replay agent frame by frame, for the AI SDK on fetch, node:https and Python's urllib, and names the call to another host it refused", () => {
    for (const name of ["route-app ai-sdk", "route-app https", "route-app python"]) {
      const { results } = project(name);
      expect(passedAlone(results), name).toEqual([["passed", []]]);
      const strays = results[0]?.annotations.find((annotation) => annotation.type === strayCallsAnnotation)?.description ?? "[]";
      expect(JSON.parse(strays), name).toEqual([{ host: "example.com", method: "GET", path: "/", at: expect.any(Number) }]);
    }
  });

  it("starts every process of app.start, the page reaching the API at {api.url}, keeps each one's log apart, names the one that failed at boot with its output, and leaves none running", async () => {
    // The test checks the page shows the API's data, the worker's log alone and the log's groups, then fails on purpose.
    const { runs } = project("processes-app");
    expect(statuses(runs)).toEqual({ [runs[0]?.title ?? ""]: ["failed", "Error: fails on purpose"] });
    const result = runs[0]?.result;
    const log = attachment(result, serverLogAttachment).toString();
    expect(log.split("\n").filter((line) => line.startsWith("==="))).toEqual(["=== web ===", "=== api ===", "=== worker ==="]);
    expect(log).toMatch(
      /^=== web ===\nweb: listening on \d+\n[^]*\n=== api ===\napi: listening on \d+\n[^]*api: GET \/data\n[^]*\n=== worker ===\nworker ready\n$/,
    );
    const excerpt = result?.annotations.find((annotation) => annotation.type === "scenario-harness:server-log-excerpt")?.description;
    expect(excerpt?.split("\n").filter((line) => line.startsWith("==="))).toEqual(["=== web ===", "=== api ===", "=== worker ==="]);

    const failed = project("processes-app api-fails").results[0];
    expect(
      plain(failed?.errors[0]?.message)
        .replace(/\d{4,5}/g, "<port>")
        .split("\n")
        .slice(0, 3),
    ).toEqual([
      'HarnessError: [scenario-harness:boot] The app\'s process "api" exited with code 1 before it was ready, its last line being ' +
        '"api: error: could not connect to the database at 127.0.0.1:<port>". Check app.start.api (`node api.mjs --fail-once-web-is-up <port>`) ' +
        "in the scenario config and its output:",
      "api: starting",
      "api: error: could not connect to the database at 127.0.0.1:<port>",
    ]);

    // Both runs' web and api, and the first's worker, noted their pids (the second's worker may have been stopped before).
    const noted = await readdir(pids);
    const roles = noted.map((file) => file.replace(/-\d+\.pid$/, "")).sort();
    expect(roles.filter((role) => role !== "worker")).toEqual(["api", "api", "web", "web"]);
    expect(roles).toContain("worker");
    const left = await Promise.all(
      noted.map(async (file) => ((await alive(Number(await readFile(join(pids, file), "utf8")))) ? [file] : [])),
    );
    expect(left.flat()).toEqual([]);
  });

  it("names each unexpected request by what it said, and says whether it came after the test had already failed", () => {
    const { runs } = project("late-request");
    const seen = (title: string) => {
      const result = runs.find((run) => run.title.startsWith(title))?.result;
      return {
        errors: result?.errors.map((error) => plain(error.message).split("\n\n")[0]?.split("\n")),
        late: result?.annotations.some((annotation) => annotation.type === "scenario-harness:replay-mismatch-after-failure"),
      };
    };
    const [assertionFirst, mismatchFirst] = [seen("The reply is shown whole"), seen("mismatch first")];
    expect(assertionFirst).toEqual({
      errors: [
        ["Error: expect(locator).toHaveText(expected) failed"],
        [
          "HarnessError: [scenario-harness:replay-mismatch] The app sent 1 request(s) the transcript did not expect (answered as a replay mismatch). The test had already failed before the first of them: its own error came first.",
          "Expected against actual:",
          '1. POST /v1/chat/completions (last user message: "Summarize this chat in one line."), sent after the test had already failed, did not match with nothing left to expect:',
          "the transcript expects no more requests: all 1 of its expect_outbound lines were already matched",
        ],
      ],
      late: true,
    });
    expect(mismatchFirst).toEqual({
      errors: [
        ["Error: expect(locator).toHaveText(expected) failed"],
        [
          "HarnessError: [scenario-harness:replay-mismatch] The app sent 1 request(s) the transcript did not expect (answered as a replay mismatch).",
          "Expected against actual:",
          '1. POST /v1/chat/completions (last user message: "Good morning") did not match against transcript line 2:',
          'body.messages[0].content: expected "Hello there", got "Good morning"',
        ],
      ],
      late: false,
    });
  });
});

describe("app.measure()", () => {
  /** Each measured block of a measure-app test, by the test's title's start. */
  const blocks = (title: string): MeasureMetadata[] =>
    (project("measure-app").runs.find((run) => run.title.startsWith(title))?.result.annotations ?? [])
      .filter((annotation) => annotation.type === measureAnnotation)
      .map((annotation) => JSON.parse(annotation.description ?? "") as MeasureMetadata);

  it("notes each block's every metric, a finite number, and its trace, which DevTools opens, beside its test's other blocks", async () => {
    expect(statuses(project("measure-app").runs)).toEqual({
      "A heavy click and a light one, each measured": ["passed", undefined],
      "A light click measured at the test's CPU slowdown": ["passed", undefined],
      "A block that throws rejects with its own error, and the next block is measured": ["passed", undefined],
      "A block without a label, one whose label was used, and one that navigates are refused": ["passed", undefined],
    });
    const all = ["A heavy click", "A light click", "A block that throws", "A block without"].map(blocks);
    expect(all.map((one) => one.map((block) => block.label))).toEqual([
      ["heavy", "light"],
      ["light, slowed down"],
      ["after the throw"],
      ["light"],
    ]);
    for (const block of all.flat()) {
      expect(Object.keys(block.metrics).sort()).toEqual([...measureMetrics].sort());
      for (const value of Object.values(block.metrics))
        expect(Number.isFinite(value) && value >= 0, `${block.label}: ${String(value)}`).toBe(true);
      expect(block.metrics.heap).toBeGreaterThan(0);
      const trace = JSON.parse(await readFile(block.trace ?? "", "utf8")) as { traceEvents?: unknown[] };
      expect(trace.traceEvents?.length).toBeGreaterThan(0);
    }
    // The block that threw left no trace: its test's folder holds the next block's alone.
    const [after] = blocks("A block that throws");
    expect(await readdir(join(after?.trace ?? "", ".."))).toEqual(["measure-2-after-the-throw.trace.json"]);
  });

  it("measures a click that re-renders 2 000 rows and forces their layout as far more work than one that sets a line of text", () => {
    const [heavy, light] = blocks("A heavy click");
    for (const metric of ["task", "script", "layout", "cpu"] as const) {
      expect(heavy?.metrics[metric], metric).toBeGreaterThan(5 * (light?.metrics[metric] ?? Infinity));
    }
    // The heavy click's handler is one long task, which delays the frames and the click's next paint.
    expect(heavy?.metrics["long-tasks"]).toBeGreaterThanOrEqual(1);
    expect(heavy?.metrics.blocking).toBeGreaterThan(0);
    expect(heavy?.metrics.interaction).toBeGreaterThan(0);
    expect(heavy?.metrics["dropped-frames"]).toBeGreaterThan(light?.metrics["dropped-frames"] ?? Infinity);
    expect([heavy?.cpuSlowdown, light?.cpuSlowdown]).toEqual([undefined, undefined]);
  });

  it("notes the CPU slowdown a test's cpuSlowdown option set for its blocks", () => {
    expect(blocks("A light click measured").map((block) => block.cpuSlowdown)).toEqual([4]);
  });
});

describe("an interrupted run (Ctrl-C, a stopped proof)", () => {
  it("takes no failure screenshot of the interrupted test's page, which may hang, and still keeps the app's log", async () => {
    const dir = await mkdtemp(join(tmpdir(), "harness-interrupted-"));
    try {
      const served = join(dir, "served");
      const ended = new AbortController();
      const watching = watch(dir, { signal: ended.signal });
      const run = execa(
        process.execPath,
        [
          "node_modules/@playwright/test/cli.js",
          "test",
          "--config",
          "harness/test-apps/hung-page/playwright.config.ts",
          "--reporter=json",
          "--output",
          join(dir, "output"),
        ],
        { reject: false, env: { HUNG_PAGE_SERVED: served } },
      );
      // A run that ends before the app served the page stops the wait (and fails below, with its output).
      void run.finally(() => ended.abort());
      try {
        // Interrupted once the app has served the page, so the test is inside its fixtures, waiting on the page.
        for await (const event of watching) if (event.filename === "served") break;
      } catch (error) {
        if (!ended.signal.aborted) throw error;
      }
      run.kill("SIGINT");
      const { stdout, stderr } = await run;
      expect(existsSync(served), stderr).toBe(true);

      const report = JSON.parse(stdout) as JsonReport;
      const results = specs(report.suites).flatMap((spec) => spec.tests.flatMap((test) => test.results));
      expect(
        results.map((result) => result.status),
        stderr,
      ).toEqual(["interrupted"]);
      const names = results[0]?.attachments.map((attachment) => attachment.name) ?? [];
      expect(names).toContain(serverLogAttachment);
      expect(names).not.toContain(failureScreenshotAttachment);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
