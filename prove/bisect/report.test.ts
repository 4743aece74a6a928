import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import { pathsFrom, secretsFrom } from "../report/redact.ts";
import type { CommitDetails } from "./commits.ts";
import { bisectCommand, defaultBisectDir } from "./paths.ts";
import { writeBisectReport, type BisectFacts } from "./report.ts";
import type { BisectReport } from "./schema.ts";

let root = "";
let runDir = "";
const secret = "sk-live-bisect-0123456789abcdef";

const commit = (n: number, subject: string): CommitDetails => ({
  sha: String(n).repeat(40).slice(0, 40),
  subject,
  author: "Robin Refactor",
  date: `2026-11-0${n}T10:00:00+01:00`,
});
const [v1, note, broken, bug, head] = [
  commit(1, "as shipped"),
  commit(2, "docs: note"),
  commit(3, "depend on the helpers"),
  commit(4, "key tool calls by id"),
  commit(5, "docs: more"),
];

async function png(name: string, colour: string): Promise<string> {
  const file = join(runDir, name);
  await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toFile(file);
  return file;
}

let lastPass: ClassifiedAttempt;
let firstFail: ClassifiedAttempt;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "prove-bisect-report-"));
  runDir = join(root, "run");
  await mkdir(runDir);
  lastPass = {
    attempt: { outcome: "passed", durationMs: 900, runMs: 4000 },
    artifacts: {
      screenshots: [
        { label: "asked", source: { path: await png("a.png", "#ffffff") } },
        { label: "tool calls", source: { path: await png("b.png", "#00ff00") } },
      ],
    },
  };
  const failureBytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#ff0000" } })
    .png()
    .toBuffer();
  firstFail = {
    attempt: {
      outcome: "failed",
      durationMs: 5200,
      runMs: 8000,
      error: { kind: "assertion", message: `expect failed; the app said ${secret}` },
    },
    artifacts: {
      screenshots: [{ label: "asked", source: { path: await png("c.png", "#fafafa") } }],
      failureScreenshot: { base64: failureBytes.toString("base64") },
    },
  };
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const facts: BisectFacts = {
  schema: "scenario-bisect/v1",
  result: "found",
  exitCode: 0,
  direction: "introduced",
  reason: "4444444 introduced the failure.",
  scenario: { file: "scenarios/x.e2e.ts", title: "Two tool calls", sha256: "ab".repeat(32) },
  old: { ...v1, ref: "v1", outcome: "pass", why: null, attempts: [] },
  new: { ...head, ref: "main", outcome: "fail", why: null, attempts: [] },
  commit: bug,
  lastOld: note,
  candidates: [bug],
  commits: 4,
  maxSteps: 3,
  repeat: 1,
  steps: [],
  skipped: [],
  timings: { totalMs: 1234 },
};

async function written(dir: string): Promise<{ readonly report: BisectReport; readonly markdown: string }> {
  const skippedWhy = "could not run (install): install failed in RUN/step1 at 3333333.".replace("RUN", runDir);
  const report = await writeBisectReport({
    dir,
    root,
    facts: {
      ...facts,
      steps: [
        { ...broken, step: 1, outcome: "skip", why: skippedWhy, attempts: [], commitsLeft: 4, stepsLeft: 2 },
        { ...bug, step: 2, outcome: "fail", why: null, attempts: [firstFail.attempt], commitsLeft: 3, stepsLeft: 2 },
        { ...note, step: 3, outcome: "pass", why: null, attempts: [lastPass.attempt], commitsLeft: 1, stepsLeft: 0 },
      ],
      skipped: [{ ...broken, why: skippedWhy }],
    },
    pair: { lastOld: { commit: note, attempts: [lastPass] }, firstNew: { commit: bug, attempts: [firstFail] } },
    command: "pnpm prove-scenario bisect --old 111111111111 --new 555555555555 scenarios/x.e2e.ts",
    secrets: secretsFrom({ OPENAI_API_KEY: secret }),
    paths: pathsFrom([
      [runDir, "<run>"],
      [root, "."],
    ]),
  });
  return { report, markdown: await readFile(join(dir, "bisect.md"), "utf8") };
}

describe("the bisect report", () => {
  it("writes bisect.json as returned, with machine paths and secrets taken out and counted", async () => {
    const dir = join(root, "reports", "found");
    const { report } = await written(dir);
    expect(JSON.parse(await readFile(join(dir, "bisect.json"), "utf8"))).toEqual(report);
    expect(report).toMatchObject({
      schema: "scenario-bisect/v1",
      result: "found",
      exitCode: 0,
      direction: "introduced",
      dir: "reports/found",
      markdown: "bisect.md",
    });
    expect(report.skipped).toEqual([{ ...broken, why: "could not run (install): install failed in <run>/step1 at 3333333." }]);
    expect(report.steps[1]?.attempts[0]?.error?.message).toBe("expect failed; the app said [redacted:OPENAI_API_KEY]");
    expect(report.redactions).toEqual({ environment: 1, secretShaped: 0 });
    expect(JSON.stringify(report)).not.toContain(root);
  });

  it("puts the failing commit's failure screenshot beside the other commit's screenshot of the step it did not reach", async () => {
    const dir = join(root, "reports", "screenshots");
    const { report, markdown } = await written(dir);
    expect(report.screenshots).toEqual({
      lastOld: note.sha,
      firstNew: bug.sha,
      rows: [
        {
          label: "asked",
          lastOld: { label: "asked", path: "images/last-old-asked.png", width: 64, height: 48 },
          firstNew: { label: "asked", path: "images/first-new-asked.png", width: 64, height: 48 },
        },
        {
          label: "tool calls",
          lastOld: { label: "tool calls", path: "images/last-old-tool-calls.png", width: 64, height: 48 },
          firstNew: { label: "failure screenshot", path: "images/first-new-failure.png", width: 64, height: 48 },
        },
      ],
    });
    for (const row of report.screenshots.rows)
      for (const shot of [row.lastOld, row.firstNew]) expect(existsSync(join(dir, shot?.path ?? "missing"))).toBe(true);
    const rows = markdown.split("\n").filter((line) => line.startsWith("| **"));
    expect(rows.map((row) => [...row.matchAll(/src="([^"]+)"/g)].map((match) => match[1]))).toEqual([
      ["images/last-old-asked.png", "images/first-new-asked.png"],
      ["images/last-old-tool-calls.png", "images/first-new-failure.png"],
    ]);
    expect(rows[1]).toContain("<br>failure screenshot |");
  });

  it("reads the answer first, then the steps with why each skipped commit was skipped, then how to run it again", async () => {
    const { markdown } = await written(join(root, "reports", "markdown"));
    expect(markdown.split("\n").slice(0, 5)).toEqual([
      "## 🔎 Found: `4444444` introduced the failure",
      "",
      "Scenario `scenarios/x.e2e.ts` › Two tool calls",
      "",
      "**found** — 4444444 introduced the failure.",
    ]);
    expect(markdown).toContain(
      "| commit | `4444444` key tool calls by id |\n| - | - |\n| author | Robin Refactor, 2026-11-04T10:00:00+01:00 |",
    );
    expect(markdown).toContain("| last pass `2222222` | first fail `4444444` |");
    expect(markdown).toContain("| --old | `1111111` v1 | as shipped | pass | |");
    expect(markdown).toContain(
      "| 1 | `3333333` | depend on the helpers | skip: could not run (install): install failed in <run>/step1 at 3333333. | 4 commits, about 2 steps |",
    );
    expect(markdown).toContain("4 commits after --old up to --new; 3 steps after both ends (at most ⌈log2 4⌉ + 1 skipped = 3).");
    expect(markdown).toContain("### Skipped\n\n- `3333333` depend on the helpers — could not run (install)");
    expect(markdown).toContain("```sh\npnpm prove-scenario bisect --old 111111111111 --new 555555555555 scenarios/x.e2e.ts\n```");
  });

  it("replaces its own files when written again into the same folder, and leaves others alone", async () => {
    const dir = join(root, "reports", "again");
    await written(dir);
    await writeFile(join(dir, "images", "stale.png"), "");
    await writeFile(join(dir, "notes.txt"), "mine");
    const old = { ...facts.old, ref: v1.sha.slice(0, 12) };
    await writeBisectReport({
      dir,
      root,
      facts: { ...facts, result: "unchanged", exitCode: 1, direction: null, old, commit: null, lastOld: null, candidates: [] },
      pair: undefined,
      command: "c",
      secrets: [],
      paths: [],
    });
    expect([existsSync(join(dir, "images")), await readFile(join(dir, "notes.txt"), "utf8")]).toEqual([false, "mine"]);
    const markdown = await readFile(join(dir, "bisect.md"), "utf8");
    expect(markdown).toMatch(/^## ➖ Unchanged: the scenario passes at both ends\n/);
    // An end given as a SHA is named once.
    expect(markdown).toContain("| --old | `1111111` | as shipped | pass | |");
  });
});

describe("where a bisection reports and how it is run again", () => {
  it("reports under reports/<scenario path>/bisect-<old7>-<new7>, with the test's slug for --grep", () => {
    expect(defaultBisectDir("/repo", "scenarios/cart/total.e2e.ts", undefined, v1.sha, head.sha)).toBe(
      "/repo/reports/scenarios/cart/total/bisect-1111111-5555555",
    );
    expect(defaultBisectDir("/repo", "scenarios/cart/total.e2e.ts", "Adds tax", v1.sha, head.sha)).toBe(
      "/repo/reports/scenarios/cart/total--adds-tax/bisect-1111111-5555555",
    );
  });

  it.each([
    [{}, "pnpm prove-scenario bisect --old 111111111111 --new 555555555555 scenarios/x.e2e.ts"],
    [
      { repo: "../app", config: "c/scenarios.config.ts", grep: "adds tax", repeat: 3, expectTimeout: 5000 },
      "pnpm prove-scenario bisect --old 111111111111 --new 555555555555 scenarios/x.e2e.ts --repo ../app --config c/scenarios.config.ts --grep 'adds tax' --repeat 3 --expect-timeout 5000",
    ],
  ])("pins the commits and repeats what changes the outcome: %j", (options, command) => {
    const typed = {
      scenario: "scenarios/x.e2e.ts",
      repo: undefined,
      config: undefined,
      grep: undefined,
      repeat: 1,
      expectTimeout: undefined,
      ...options,
    };
    expect(
      bisectCommand(
        typed,
        { cwd: "/work/checkout", root: "/work/checkout", prover: "pnpm prove-scenario" },
        { old: v1.sha, new: head.sha, repo: "/work/app" },
      ),
    ).toBe(command);
  });
});
