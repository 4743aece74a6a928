import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import type { Attempt } from "../outcome/types.ts";
import { refLabel } from "../outcome/ref-label.ts";
import { decide } from "../outcome/verdict.ts";
import { pathsFrom, secretsFrom } from "./redact.ts";
import type { ProofReport } from "./schema.ts";
import { writeReport } from "./write-report.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const secret = "sk-live-planted-0123456789";
const secrets = secretsFrom({ OPENAI_API_KEY: secret });
/** A token the app itself printed: no variable holds it, its shape gives it away. */
const printed = "ghp_Printed0By1The2App3Planted4Qz7abcdef";

const png = async (width: number, height: number, colour: string) =>
  (
    await sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer()
  ).toString("base64");

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/**
 * A proof's evidence in a checkout at `work` (a folder whose name is planted to be found), its
 * base worktree at `<work>/run/base`: every text names those paths the way Playwright and an app do.
 */
async function proofWithEvidence(
  refs: { readonly base: string; readonly head: string } = { base: "main", head: "fix" },
  baseErrors?: (scenarioFile: string) => Pick<Attempt, "error" | "errors">,
  headRefused?: Attempt["refused"],
) {
  const work = await mkdtemp(join(tmpdir(), "prove-report-planted-Qz7-"));
  scratch.push(work);
  const scenarioFile = join(work, "scenarios/x.e2e.ts");
  const trace = [
    `{"type":"log","message":"key ${secret}"}`,
    `{"type":"before","callId":"c1","stack":[{"file":${JSON.stringify(scenarioFile)},"line":18,"column":3}]}`,
    `{"type":"log","message":"app root ${work}/run/base"}`,
    `{"type":"stdout","text":"deploy token ${printed}\\n"}`,
  ].join("\n");
  await writeFile(
    join(work, "trace.zip"),
    zipSync({ "trace.trace": strToU8(`${trace}\n`), [`src/${sha1(scenarioFile)}.ts`]: strToU8("test('x', async () => {});\n") }),
  );
  // A page of head's screenshots' size, white but for a top-left corner of the colour of head's finished one.
  const corner = Buffer.from(await png(320, 200, "#339966"), "base64");
  await writeFile(
    join(work, "failed.png"),
    await sharp(Buffer.from(await png(640, 360, "#ffffff"), "base64"))
      .composite([{ input: corner, left: 0, top: 0 }])
      .png()
      .toBuffer(),
  );

  const base: ClassifiedAttempt = {
    attempt: {
      outcome: "failed",
      durationMs: 4210,
      runMs: 9800,
      error: {
        kind: "assertion",
        message: `Error: expect(locator).toBeHidden() failed | token ${secret} | ${printed}\n    at ${scenarioFile}:18:3`,
        location: "scenarios/x.e2e.ts:18",
      },
      ...baseErrors?.(scenarioFile),
    },
    artifacts: {
      screenshots: [
        { label: "opened", source: { base64: await png(640, 360, "#eeeeee") } },
        { label: "streaming", source: { base64: await png(640, 360, "#336699") } },
      ],
      failureScreenshot: { path: join(work, "failed.png") },
      trace: { path: join(work, "trace.zip") },
      serverLog: { base64: Buffer.from(`listening in ${work}/run/base\nOPENAI_API_KEY=${secret}\nGITHUB=${printed}\n`).toString("base64") },
    },
  };
  const head: ClassifiedAttempt = {
    attempt: { outcome: "passed", durationMs: 3100, runMs: 7400, ...(headRefused === undefined ? {} : { refused: headRefused }) },
    artifacts: {
      screenshots: [
        { label: "opened", source: { base64: await png(640, 360, "#eeeeee") } },
        { label: "streaming", source: { base64: await png(640, 360, "#993366") } },
        { label: "finished", source: { base64: await png(640, 360, "#339966") } },
      ],
    },
  };
  const dir = join(work, "reports/x/aaaaaaa-bbbbbbb");
  const shas = { base: "a".repeat(40), head: "b".repeat(40) };
  const sides = {
    base: { ref: refLabel(refs.base, shas.base), attempts: [base.attempt] },
    head: { ref: refLabel(refs.head, shas.head), attempts: [head.attempt] },
  };
  const report = await writeReport({
    dir,
    root: work,
    decision: decide(sides.base, sides.head),
    scenario: { file: "scenarios/x.e2e.ts", title: "Stop button goes away", sha256: "ab".repeat(32) },
    base: { ref: refs.base, commit: { sha: shas.base, subject: "Add streaming" }, attempts: [base] },
    head: { ref: refs.head, commit: { sha: shas.head, subject: "Handle the end of the stream" }, attempts: [head] },
    totalMs: 9000.4,
    steps: [
      { label: { step: "scenario" }, ms: 1700.2 },
      { label: { side: "base", step: "worktree" }, ms: 300 },
      { label: { side: "head", step: "worktree" }, ms: 280 },
      { label: { side: "base", step: "install" }, ms: 1900 },
      { label: { side: "head", step: "install" }, ms: 250 },
      { label: { side: "base", step: "boot" }, ms: 1200 },
      { label: { step: "refs" }, ms: 40 },
    ],
    command: "pnpm prove-scenario --base main --head fix scenarios/x.e2e.ts",
    secrets,
    paths: pathsFrom([
      [join(work, "run/base"), "<base>"],
      [join(work, "run"), "<run>"],
      [work, "."],
    ]),
  });
  return { work, dir, report };
}

/** report.md's table rows, each cell with its thumbnails replaced by their paths. */
const tableRows = (markdown: string) =>
  markdown
    .split("\n")
    .filter((line) => line.startsWith("| **"))
    .map((row) =>
      row
        .replace(/^\| | \|$/g, "")
        .split(" | ")
        .map((cell) => cell.replace(/<a href="[^"]*"><img src="([^"]+)"[^>]*><\/a>/g, "$1")),
    );

describe("the report folder", () => {
  it("holds report.json with the contract's fields, the images, the trace and the server log", async () => {
    const { dir, report } = await proofWithEvidence();
    const json = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as ProofReport;
    expect(json).toEqual(report);
    expect(Object.keys(json)).toEqual([
      "schema",
      "verdict",
      "exitCode",
      "reasonCode",
      "reason",
      "scenario",
      "base",
      "head",
      "dir",
      "comparisonImage",
      "differences",
      "markdown",
      "timings",
      "command",
      "redactions",
    ]);
    expect([json.schema, json.verdict, json.exitCode, json.reasonCode]).toEqual(["scenario-proof/v1", "proved", 0, "proved"]);
    expect(json.base).toEqual({
      ref: "main",
      sha: "a".repeat(40),
      subject: "Add streaming",
      attempts: [
        {
          outcome: "failed",
          durationMs: 4210,
          runMs: 9800,
          error: {
            kind: "assertion",
            message:
              "Error: expect(locator).toBeHidden() failed | token [redacted:OPENAI_API_KEY] | [redacted:secret-shaped]\n    at scenarios/x.e2e.ts:18:3",
            location: "scenarios/x.e2e.ts:18",
          },
        },
      ],
      screenshots: [
        { label: "opened", path: "images/base-opened.png", width: 640, height: 360 },
        { label: "streaming", path: "images/base-streaming.png", width: 640, height: 360 },
      ],
      trace: "base/trace.zip",
      serverLog: "base/server.log",
    });
    expect(json.head.screenshots.map((shot) => shot.path)).toEqual([
      "images/head-opened.png",
      "images/head-streaming.png",
      "images/head-finished.png",
    ]);
    expect([json.head.trace, json.head.serverLog]).toEqual([null, null]);
    expect([json.comparisonImage, json.markdown, json.dir]).toEqual(["comparison.png", "report.md", "reports/x/aaaaaaa-bbbbbbb"]);
    // Each side's steps from progress, each run's parts from its attempt: the run outside the test is the runner's.
    expect({ ...json.timings, reportMs: undefined }).toEqual({
      totalMs: 9000,
      listingMs: 1700,
      base: { worktreeMs: 300, installMs: 1900, buildMs: null, runs: [{ runMs: 9800, runnerMs: 5590, bootMs: null, testMs: 4210 }] },
      head: { worktreeMs: 280, installMs: 250, buildMs: null, runs: [{ runMs: 7400, runnerMs: 4300, bootMs: null, testMs: 3100 }] },
      reportMs: undefined,
    });
    expect(json.timings.reportMs).toBeGreaterThan(0);
    expect(await readFile(join(dir, "report.md"), "utf8")).toContain(
      "Time: 9.0s in all; listing 1.7s; base worktree 300ms, install 1.9s, run 9.8s (runner 5.6s, test 4.2s); " +
        "head worktree 280ms, install 250ms, run 7.4s (runner 4.3s, test 3.1s); report ",
    );
    expect((await sharp(join(dir, "images/failure-base.png")).metadata()).width).toBe(640);
    // The labels both sides reached, compared: opened is the same grey on both, streaming another colour on head.
    expect(json.differences).toEqual({
      threshold: 0.001,
      tolerance: 16,
      labels: [
        { label: "opened", path: "images/diff-opened.png", width: 640, height: 360, changedPixels: 0, changedShare: 0, changed: false },
        {
          label: "streaming",
          path: "images/diff-streaming.png",
          width: 640,
          height: 360,
          changedPixels: 640 * 360,
          changedShare: 1,
          changed: true,
        },
      ],
      // Base's failure screenshot against head's finished: all but the corner they share changed.
      failures: [
        {
          label: "finished",
          failure: "base",
          path: "images/failure-base-diff.png",
          width: 640,
          height: 360,
          changedPixels: 640 * 360 - 320 * 200,
          changedShare: (640 * 360 - 320 * 200) / (640 * 360),
          changed: true,
        },
      ],
    });
    expect(await sharp(join(dir, "images/diff-streaming.png")).metadata()).toMatchObject({ width: 640, height: 360 });
    const failureDiff = await sharp(join(dir, "images/failure-base-diff.png")).raw().toBuffer({ resolveWithObject: true });
    expect([failureDiff.info.width, failureDiff.info.height]).toEqual([640, 360]);
    const pixel = (x: number, y: number) => [
      ...failureDiff.data.subarray((y * 640 + x) * failureDiff.info.channels, (y * 640 + x) * failureDiff.info.channels + 3),
    ];
    expect(pixel(319, 199)).not.toEqual([255, 0, 255]);
    expect([pixel(320, 199), pixel(319, 200), pixel(639, 359)]).toEqual([
      [255, 0, 255],
      [255, 0, 255],
      [255, 0, 255],
    ]);
    // One variable's value and one printed token, each counted once though each is in several files.
    expect(json.redactions).toEqual({ environment: 1, secretShaped: 1 });
  });

  it("has one row per label in scenario order, a difference where both sides reached it, and base's failure beside head's first label base did not reach, compared with it", async () => {
    const { dir } = await proofWithEvidence();
    const markdown = await readFile(join(dir, "report.md"), "utf8");
    expect(tableRows(markdown)).toEqual([
      ["**opened**", "images/base-opened.png", "images/head-opened.png", "images/diff-opened.png<br>no pixel changed"],
      ["**streaming**", "images/base-streaming.png", "images/head-streaming.png", "images/diff-streaming.png<br>100 % of pixels changed"],
      [
        "**finished**",
        "images/failure-base.png<br>failure screenshot: failed before this step",
        "images/head-finished.png",
        "images/failure-base-diff.png<br>72.22 % of pixels changed",
      ],
    ]);
    expect(markdown).toContain("| | base `aaaaaaa` main | head `bbbbbbb` fix | difference |");
    expect(markdown).toContain('<img src="images/diff-opened.png" width="260" alt="difference: opened">');
    expect(markdown).toContain(
      '<img src="images/failure-base-diff.png" width="260" alt="difference: base\'s failure screenshot against head: finished">',
    );
    expect(markdown.split("\n")[0]).toBe("## ✅ Proved: Stop button goes away");
    expect(markdown).toContain("**Base: assertion** at `scenarios/x.e2e.ts:18`");
    expect(markdown).toContain("pnpm prove-scenario --base main --head fix scenarios/x.e2e.ts");
    expect(markdown).toContain("| | base `aaaaaaa` main | head `bbbbbbb` fix |");
    expect(markdown).toContain("- base: `aaaaaaa` (main) Add streaming — failed (run 9.8s, of which the test 4.2s)");
    expect(markdown).toContain("- head: `bbbbbbb` (fix) Handle the end of the stream — passed (run 7.4s, of which the test 3.1s)");
  });

  it("shows every error of a side in order: the assertion with its diff, then the request the app sent after it, redacted", async () => {
    const assertion = {
      kind: "assertion" as const,
      message:
        'Error: expect(locator).toHaveText(expected) failed\n\nLocator:  getByRole(\'heading\')\nExpected: "Hello! How can I help?"\nReceived: "Hello"',
      location: "scenarios/x.e2e.ts:18",
    };
    const mismatch = {
      kind: "unexpected-request" as const,
      message:
        "HarnessError: [scenario-harness:replay-mismatch] The app sent 1 request(s) the transcript did not expect (answered as a replay mismatch). The test had already failed before the first of them: its own error came first.\n" +
        `Expected against actual:\n1. POST /v1/chat/completions (last user message: "my key is ${secret}"), sent after the test had already failed, did not match with nothing left to expect:\n` +
        "the transcript expects no more requests: all 1 of its expect_outbound lines were already matched",
    };
    const { dir, report } = await proofWithEvidence(undefined, () => ({ error: assertion, errors: [assertion, mismatch] }));
    const markdown = await readFile(join(dir, "report.md"), "utf8");
    const [first, second] = ["**Base: assertion** at `scenarios/x.e2e.ts:18`", "**Base, then: unexpected-request**"].map((heading) =>
      markdown.indexOf(heading),
    );
    expect(first).toBeGreaterThan(-1);
    expect(second).toBeGreaterThan(first ?? 0);
    expect(markdown.slice(first, second)).toContain('Expected: "Hello! How can I help?"\nReceived: "Hello"');
    expect(markdown.slice(second)).toContain(
      '1. POST /v1/chat/completions (last user message: "my key is [redacted:OPENAI_API_KEY]"), sent after the test had already failed',
    );
    expect(markdown).not.toContain(secret);
    expect(report.base.attempts[0]?.errors?.map((error) => error.kind)).toEqual(["assertion", "unexpected-request"]);
    expect(report.base.attempts[0]?.errors?.[1]?.message).not.toContain(secret);
  });

  it("lists the calls the route refused on a side that passed, each with its step, its secrets redacted", async () => {
    const refused = [
      {
        host: "example.com",
        method: "GET",
        path: `/track?key=${secret}`,
        at: "2026-12-04T17:03:36.542Z",
        step: 'Expect "toHaveText" (scenarios/x.e2e.ts:18)',
      },
      { host: "fonts.googleapis.com", method: "GET", path: "/css2", at: "2026-12-04T17:03:37.001Z" },
    ];
    const { dir, report } = await proofWithEvidence(undefined, undefined, refused);
    const markdown = await readFile(join(dir, "report.md"), "utf8");
    const heading = "**Head: calls the route refused** (neither routed to the replay agent nor allowed)";
    expect(markdown.slice(markdown.indexOf(heading)).split("\n").slice(0, 5)).toEqual([
      heading,
      "",
      '- `GET example.com/track?key=[redacted:OPENAI_API_KEY] (during Expect "toHaveText" (scenarios/x.e2e.ts:18))`',
      "- `GET fonts.googleapis.com/css2`",
      "",
    ]);
    expect(report.head.attempts[0]?.refused?.map((call) => call.path)).toEqual(["/track?key=[redacted:OPENAI_API_KEY]", "/css2"]);
  });

  it("names a side by its short SHA alone when the ref given was the SHA, never printing the 40 characters", async () => {
    const { dir, report } = await proofWithEvidence({ base: "a".repeat(40), head: "bbbbbbbbbbbb" });
    const markdown = await readFile(join(dir, "report.md"), "utf8");
    expect(markdown).toContain("| | base `aaaaaaa` | head `bbbbbbb` |");
    expect(markdown).toContain("- base: `aaaaaaa` Add streaming — failed");
    expect(markdown).toContain("- head: `bbbbbbb` Handle the end of the stream — passed");
    expect(report.reason).toMatch(
      /^The scenario fails on base \(aaaaaaa\) with assertion at scenarios\/x\.e2e\.ts:18: .*, and passes on head \(bbbbbbb\)\.$/,
    );
    expect(markdown.replace(/```sh\n.*\n```/, "")).not.toMatch(/[0-9a-f]{12}/);
  });

  it("has comparison.png with base, head and difference columns in the width two had, and every row", async () => {
    const { dir } = await proofWithEvidence();
    const { data, info } = await sharp(join(dir, "comparison.png")).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(16 * 3 + 640 * 2);
    const cell = Math.floor((info.width - 16 * 4) / 3);
    expect(info.height).toBeGreaterThan(3 * Math.round((360 * cell) / 640));
    // streaming's difference image, all of it changed, is a magenta cell in the third column, and the finished row's, base's
    // failure screenshot against head's, 72 % of another.
    let magenta = 0;
    for (let pixel = 0; pixel < data.length; pixel += 3)
      if (data[pixel] === 255 && data[pixel + 1] === 0 && data[pixel + 2] === 255) magenta++;
    expect(magenta).toBeGreaterThan(1.5 * cell * Math.round((360 * cell) / 640));
  });

  it("never holds the value of a secret-looking environment variable or a path of this machine, in any file", async () => {
    const { work, dir } = await proofWithEvidence();
    for (const file of await filesUnder(dir)) {
      const bytes = await readFile(file);
      const contents = file.endsWith(".zip") ? Object.values(unzipSync(bytes)) : [bytes];
      const text = contents.map((content) => Buffer.from(content).toString("latin1")).join("\n");
      expect(text, file).not.toContain(secret);
      expect(text, file).not.toContain("planted-Qz7");
      expect(text, file).not.toContain("Planted4Qz7");
    }
    expect(await readFile(join(dir, "base/server.log"), "utf8")).toBe(
      "listening in <base>\nOPENAI_API_KEY=[redacted:OPENAI_API_KEY]\nGITHUB=[redacted:secret-shaped]\n",
    );
    expect(work).toContain("planted-Qz7");
  });

  it("keeps a trace's sources where the trace viewer looks for them under the paths it now shows", async () => {
    const { dir } = await proofWithEvidence();
    const entries = unzipSync(await readFile(join(dir, "base/trace.zip")));
    expect(Object.keys(entries).sort()).toEqual([`src/${sha1("scenarios/x.e2e.ts")}.ts`, "trace.trace"]);
    expect(
      strFromU8(entries["trace.trace"] ?? new Uint8Array())
        .split("\n")
        .slice(1, 4),
    ).toEqual([
      '{"type":"before","callId":"c1","stack":[{"file":"scenarios/x.e2e.ts","line":18,"column":3}]}',
      '{"type":"log","message":"app root <base>"}',
      '{"type":"stdout","text":"deploy token [redacted:secret-shaped]\\n"}',
    ]);
  });
});
