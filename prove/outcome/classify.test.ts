import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonReport } from "../playwright/json-report.ts";
import type { StepMetadata } from "../../common/contract.ts";
import { classify } from "./classify.ts";
import { describeRefused, refusedCalls, stepAt } from "./refused.ts";
import { describeTimeout, timedOut } from "./timed-out.ts";

/**
 * Samples are real Playwright 1.65 JSON reports, recorded from a test app whose fixtures throw
 * the harness's tagged errors the way the harness does (paths rewritten to /repo); the two of an
 * assertion and an unexpected request in either order, from the real harness and replay agent
 * running harness/test-apps/late-request (`--grep "assertion first"`, `--grep "mismatch first"`);
 * poll-message and timeout-in-step from a plain @playwright/test file, one test each:
 * `await expect.poll(() => 1, { message: "the count", timeout: 500 }).toBe(2)` at line 4, and
 * `await page.getByRole("button").click()` on a page without one, under a 3000 ms test timeout, at line 9;
 * server-log-excerpt from harness/test-apps/origin-app run with its default-host.config.ts; page-error (with its steps)
 * from `prove-scenario run --at broken-fix --keep` of prove/test-fixtures/concurrency/negative.e2e.ts in the sum app of
 * prove/e2e/support/express-repo.ts, whose page throws when its button is clicked and shows no total.
 */
function classifySample(name: string, steps: ReadonlyArray<StepMetadata> = []) {
  const report = parseJsonReport(readFileSync(join(import.meta.dirname, "samples", `${name}.json`), "utf8"));
  if (report === undefined) throw new Error(`sample ${name} is not a JSON report`);
  return classify(report, { root: "/repo", scenarioFile: "/repo/samples-src/s.e2e.ts", wallMs: 1234, steps });
}

/** A sample run's steps, as harness/steps-reporter.ts wrote them beside its JSON report. */
const stepsOf = (name: string): ReadonlyArray<StepMetadata> =>
  JSON.parse(readFileSync(join(import.meta.dirname, "samples", `${name}.steps.json`), "utf8")) as StepMetadata[];

const table: ReadonlyArray<
  readonly [sample: string, outcome: string, kind: string | undefined, location: string | undefined, firstLine: string | undefined]
> = [
  ["passed", "passed", undefined, undefined, undefined],
  ["assertion", "failed", "assertion", "samples-src/s.e2e.ts:9", "Error: expect(locator).toHaveText(expected) failed"],
  ["poll-message", "failed", "assertion", "samples-src/s.e2e.ts:4", "Error: the count"],
  ["timeout", "failed", "timeout", undefined, "Test timeout of 3000ms exceeded."],
  ["timeout-in-step", "failed", "timeout", "samples-src/s.e2e.ts:9", "Test timeout of 3000ms exceeded."],
  ["app-error", "failed", "app-error", "samples-src/s.e2e.ts:19", "SyntaxError: Expected property name or '}' in JSON at position 1"],
  [
    "mismatch",
    "failed",
    "unexpected-request",
    "samples-src/fixtures.ts:13",
    "Error: [scenario-harness:replay-mismatch] The app sent a request the transcript did not expect:",
  ],
  [
    "assertion-then-mismatch",
    "failed",
    "assertion",
    "harness/test-apps/late-request/late-request.e2e.ts:16",
    "Error: expect(locator).toHaveText(expected) failed",
  ],
  [
    "mismatch-then-assertion",
    "failed",
    "unexpected-request",
    "harness/agent.ts:185",
    "HarnessError: [scenario-harness:replay-mismatch] The app sent 1 request(s) the transcript did not expect (answered as a replay mismatch).",
  ],
  [
    "unplayed",
    "failed",
    "unplayed-transcript",
    "samples-src/fixtures.ts:14",
    "Error: [scenario-harness:transcript-unplayed] 2 lines of the transcript were never played: the app stopped early.",
  ],
  [
    "boot",
    "error",
    "boot",
    "samples-src/fixtures.ts:9",
    "Error: [scenario-harness:boot] The app exited with code 1 before it was ready. Check app.start (`node server.js`) in the scenario config and the app's output:",
  ],
  [
    "browser",
    "error",
    "browser",
    "samples-src/fixtures.ts:5",
    "Error: [scenario-harness:browser] No Chromium found. Install one with `apt-get install -y chromium`.",
  ],
  ["scenario-load", "error", "scenario-load", "samples-src/load.e2e.ts:2", "Error: Cannot find module './does-not-exist'"],
  [
    "skipped",
    "error",
    "skipped",
    undefined,
    "The scenario was skipped (test.skip or test.fixme); remove the skip so it can prove something.",
  ],
];

describe("classifying an attempt from Playwright's JSON report", () => {
  it.each(table)("%s → %s (%s)", (sample, outcome, kind, location, firstLine) => {
    const { attempt } = classifySample(sample);
    expect(attempt.outcome).toBe(outcome);
    expect(attempt.error?.kind).toBe(kind);
    expect(attempt.error?.location).toBe(location);
    expect(attempt.error?.message.split("\n")[0]).toBe(firstLine);
  });

  it("adds the server log's excerpt the harness kept to the first cause when it holds a warning, so the line that says why is in the report", () => {
    const { attempt } = classifySample("server-log-excerpt");
    expect(attempt.error?.kind).toBe("assertion");
    expect(attempt.error?.message).toContain("Error: element(s) not found");
    expect(attempt.error?.message).toContain(
      'The app\'s server log (its warnings and errors, then its last lines):\nready on 127.0.0.1\nGET / 200\nGET / 200\n⚠ Blocked cross-origin request to dev resource /_dev/client.js from "127.0.0.1". Open the app at localhost.',
    );
    // harness/test-apps/processes-app: an app of three processes, its excerpt grouped by process, the warning in its API's.
    const grouped = classifySample("server-log-processes").attempt.error?.message.split("its last lines):\n")[1];
    expect(grouped?.replace(/\d{4,5}/g, "<port>")).toBe(
      "=== web ===\nweb: listening on <port>\nweb: GET / [×2]\n\n=== api ===\napi: listening on <port>\napi: GET /health\napi: GET /data\n" +
        "api: warning: no cache configured; /data answered from memory\n\n=== worker ===\nworker ready\n",
    );
  });

  // harness/test-apps/route-app run with the steps reporter: its https.config.ts (passed), and its AI SDK app given
  // openai.ndjson, so that api.anthropic.com is not routed and the SDK's call and its retry are refused (failed).
  it("names each call the route refused with the test's step it came in, and ends a failed attempt's first cause with them", () => {
    const passed = classifySample("refused-passed", stepsOf("refused-passed")).attempt;
    expect([passed.outcome, passed.refused]).toEqual([
      "passed",
      [
        {
          host: "example.com",
          method: "GET",
          path: "/",
          at: expect.stringMatching(/^2026-12-04T/),
          step: 'Expect "toHaveText" (harness/test-apps/route-app/route.e2e.ts:10)',
        },
      ],
    ]);
    const failed = classifySample("refused-failed", stepsOf("refused-failed")).attempt;
    expect(failed.refused?.map((call) => [call.method, call.host, call.path, call.step])).toEqual([
      ["POST", "api.anthropic.com", "/v1/messages", 'Expect "toHaveText" (harness/test-apps/route-app/route.e2e.ts:10)'],
      ["POST", "api.anthropic.com", "/v1/messages", 'Expect "toHaveText" (harness/test-apps/route-app/route.e2e.ts:10)'],
    ]);
    expect(failed.error?.message.split("\n").slice(-3)).toEqual([
      "Calls the route refused (their hosts are neither routed to the replay agent nor allowed, app.route):",
      '- POST api.anthropic.com/v1/messages (during Expect "toHaveText" (harness/test-apps/route-app/route.e2e.ts:10))',
      '- POST api.anthropic.com/v1/messages (during Expect "toHaveText" (harness/test-apps/route-app/route.e2e.ts:10))',
    ]);
    // Without the steps (a run the reporter did not see end), each call is still named, without its step.
    expect(classifySample("refused-failed").attempt.refused?.map((call) => call.step)).toEqual([undefined, undefined]);
  });

  it("ends a failed assertion's first cause with the harness's note of the replay agents the app never reached, when nothing before it explains the failure", () => {
    const note = "The replay agent received no request before the test failed.";
    /** A sample run's attempt, as if its app had never called the replay agent. */
    const unreached = (name: string) => {
      // Each result's annotations gain the harness's note, as its agent fixture adds it.
      const text = readFileSync(join(import.meta.dirname, "samples", `${name}.json`), "utf8");
      const noted = JSON.stringify(
        JSON.parse(text, (key, value: unknown) =>
          key === "annotations" && Array.isArray(value)
            ? [{ type: "scenario-harness:agents-unreached", description: note }, ...value]
            : value,
        ),
      );
      const report = parseJsonReport(noted);
      if (report === undefined) throw new Error("not a JSON report");
      return classify(report, { root: "/repo", scenarioFile: "/repo/samples-src/s.e2e.ts", wallMs: 1234 }).attempt;
    };
    const assertion = unreached("assertion");
    expect([assertion.outcome, assertion.error?.kind, assertion.error?.message.endsWith(`\n\n${note}`)]).toEqual([
      "failed",
      "assertion",
      true,
    ]);
    expect(classifySample("assertion").attempt.error?.message).not.toContain(note);
    // An error in the page before the failure, or an app error, explains it: the note would send the reader astray.
    for (const name of ["page-error", "app-error"]) expect(unreached(name).error?.message, name).not.toContain(note);
  });

  it("names an HTTPS call to an IP address, which failed its TLS handshake with the route, by that failure", () => {
    const stray = {
      host: "an IP address",
      method: "CONNECT",
      path: "",
      at: Date.parse("2026-12-04T10:00:01Z"),
      tlsFailure: "cert-rejected",
    };
    const steps = [
      {
        title: "locator.click",
        location: "/repo/scenarios/a.e2e.ts:5",
        start: Date.parse("2026-12-04T10:00:00Z"),
        end: Date.parse("2026-12-04T10:00:02Z"),
      },
    ];
    const [call] = refusedCalls([stray], steps, "/repo");
    expect(call).toEqual({ ...stray, at: "2026-12-04T10:00:01.000Z", step: "locator.click (scenarios/a.e2e.ts:5)" });
    expect(call === undefined ? undefined : describeRefused(call)).toBe(
      "HTTPS to an IP address, its TLS handshake with the route failed (cert-rejected) (during locator.click (scenarios/a.e2e.ts:5))",
    );
  });

  it("keeps what went wrong in the page with its time and step, and ends a failed attempt's first cause with the first that came before it failed", () => {
    const { attempt } = classifySample("page-error", stepsOf("page-error"));
    expect(attempt.events).toEqual([
      {
        kind: "page-error",
        at: "2026-12-04T20:13:46.227Z",
        step: 'Expect "toHaveText" (prove/test-fixtures/concurrency/negative.e2e.ts:10)',
        beforeTestEnd: true,
        text: "TypeError: Cannot set properties of null (setting 'textContent')",
        location: "http://127.0.0.1:44265/app/:14:50",
      },
    ]);
    expect(attempt.error?.message.split("\n\n").slice(-2)).toEqual([
      "Call log:\n  - Expect \"toHaveText\" getByRole('status') with timeout 3000ms\n  - waiting for getByRole('status')\n    9 × locator resolved to <output></output>\n      - unexpected value \"\"",
      'Before it failed, first an uncaught error in the page, during Expect "toHaveText" (prove/test-fixtures/concurrency/negative.e2e.ts:10):\n' +
        "TypeError: Cannot set properties of null (setting 'textContent')\n  at http://127.0.0.1:44265/app/:14:50",
    ]);
  });

  it("keeps an event that came once the test had ended in events, and names none beside the first cause", () => {
    // The same run, its test's steps said to have ended before the page threw.
    const text = readFileSync(join(import.meta.dirname, "samples", "page-error.json"), "utf8");
    const early = text.replace(/\\"testEnd\\":\d+/g, '\\"testEnd\\":1796415226000');
    expect(early).not.toBe(text);
    const report = parseJsonReport(early);
    if (report === undefined) throw new Error("not a JSON report");
    const { attempt } = classify(report, { root: "/repo", scenarioFile: "/repo/samples-src/s.e2e.ts", wallMs: 1234 });
    expect(attempt.events?.map((event) => [event.kind, event.beforeTestEnd, event.step])).toEqual([["page-error", false, undefined]]);
    expect(attempt.error?.message).not.toContain("Before it failed");
  });

  it("names a call that came between two steps by the step before it, and none before the first", () => {
    const steps = stepsOf("refused-passed");
    const [launch, , , , click] = steps;
    if (launch === undefined || click === undefined) throw new Error("the sample's steps are not as recorded");
    expect([stepAt(launch.start - 1, steps, "/repo"), stepAt(click.end + 1, steps, "/repo")]).toEqual([
      undefined,
      "after Click (harness/test-apps/route-app/route.e2e.ts:9)",
    ]);
  });

  it("leaves out a server log that holds no warning or error", () => {
    // The same run, its server log without the line that says why: only requests are left.
    const text = readFileSync(join(import.meta.dirname, "samples", "server-log-excerpt.json"), "utf8");
    const quiet = JSON.stringify(JSON.parse(text), (key, value: unknown) =>
      key === "description" && typeof value === "string"
        ? value
            .split("\n")
            .filter((line) => !line.includes("Blocked"))
            .join("\n")
        : value,
    );
    const report = parseJsonReport(quiet);
    if (report === undefined) throw new Error("not a JSON report");
    const message = classify(report, { root: "/repo", scenarioFile: "/repo/samples-src/s.e2e.ts", wallMs: 1234 }).attempt.error?.message;
    expect(message).toContain("Error: element(s) not found");
    expect(message).not.toContain("The app's server log");
  });

  it("keeps messages free of colour codes, code snippets and stacks", () => {
    const message = classifySample("assertion").attempt.error?.message ?? "";
    expect(message).toContain('Expected: "Bye"');
    expect(message).not.toContain("\u001b");
    expect(message).not.toMatch(/\d+ \||^\s+at /m);
  });

  it.each([
    ["assertion-then-mismatch", ["assertion", "unexpected-request"]],
    ["mismatch-then-assertion", ["unexpected-request", "assertion"]],
    ["mismatch", ["unexpected-request", "assertion"]],
    ["timeout-in-step", ["timeout", "timeout"]],
  ])("keeps every error of %s in the order they happened, the first cause first", (sample, kinds) => {
    const { attempt } = classifySample(sample);
    expect(attempt.errors?.map((error) => error.kind)).toEqual(kinds);
    expect(attempt.errors?.[0]).toEqual(attempt.error);
  });

  it("keeps the assertion's diff beside a request the app sent after it failed, and names that request", () => {
    const [assertion, mismatch] = classifySample("assertion-then-mismatch").attempt.errors ?? [];
    expect(assertion?.message).toContain('Expected: "Hello! How can I help?"\nReceived: "Hello"');
    expect(mismatch?.message).toContain(
      '1. POST /v1/chat/completions (last user message: "Summarize this chat in one line."), sent after the test had already failed, did not match with nothing left to expect:',
    );
  });

  it("finds labelled screenshots in order, the failure screenshot, the trace and the server log", () => {
    const passed = classifySample("passed");
    expect(passed.attempt.durationMs).toBeGreaterThan(0);
    expect(passed.artifacts.screenshots.map((shot) => shot.label)).toEqual(["start", "end"]);
    expect(passed.artifacts.failureScreenshot).toBeUndefined();

    const failed = classifySample("assertion").artifacts;
    expect(failed.screenshots.map((shot) => shot.label)).toEqual(["start"]);
    expect(failed.failureScreenshot).toEqual({ path: "/tmp/prover-run/assertion-out/s.e2e.ts-assertion/test-failed-1.png" });
    expect(failed.trace).toEqual({ path: "/tmp/prover-run/assertion-out/s.e2e.ts-assertion/trace.zip" });
    expect(failed.serverLog).toHaveProperty("base64");
  });

  it("takes the harness's failure screenshot, which leaves out dev tool launchers, over Playwright's own", () => {
    const text = readFileSync(join(import.meta.dirname, "samples", "assertion.json"), "utf8");
    const harnessShot = {
      name: "scenario-harness:failure-screenshot",
      contentType: "image/png",
      path: "/tmp/prover-run/assertion-out/harness-failure.png",
    };
    // The assertion sample as the harness now attaches to it: its own failure screenshot beside Playwright's.
    const withHarnessShot = text.replace('"attachments": [', `"attachments": [${JSON.stringify(harnessShot)},`);
    expect(withHarnessShot).not.toBe(text);
    const report = parseJsonReport(withHarnessShot);
    if (report === undefined) throw new Error("the sample is not a JSON report");
    const { artifacts } = classify(report, { root: "/repo", scenarioFile: "/repo/samples-src/s.e2e.ts", wallMs: 1234 });
    expect(artifacts.failureScreenshot).toEqual({ path: harnessShot.path });
  });

  it("names the step and line a test timeout stopped, and tells a timeout from an expect that read a wrong value", () => {
    const stopped = timedOut(classifySample("timeout-in-step").attempt);
    expect(stopped === undefined ? undefined : describeTimeout(stopped)).toBe(
      "reached the test timeout (3000 ms) in locator.click at samples-src/s.e2e.ts:9",
    );
    expect(timedOut(classifySample("assertion").attempt)).toBeUndefined();
    expect(timedOut(classifySample("poll-message").attempt)).toBeUndefined();
  });

  it("takes the wall time when no test ran", () => {
    expect(classifySample("scenario-load").attempt.durationMs).toBe(1234);
  });
});
