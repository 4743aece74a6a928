import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, unzipSync, zipSync } from "fflate";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import { decide } from "../outcome/verdict.ts";
import { secretsFrom } from "./redact.ts";
import type { ProofReport } from "./schema.ts";
import { writeReport } from "./write-report.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const secret = "sk-live-planted-0123456789";
const secrets = secretsFrom({ OPENAI_API_KEY: secret });

const png = async (width: number, height: number, colour: string) =>
  (await sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer()).toString("base64");

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function proofWithEvidence() {
  const work = await mkdtemp(join(tmpdir(), "prove-report-"));
  scratch.push(work);
  await writeFile(join(work, "trace.zip"), zipSync({ "trace.trace": strToU8(`{"type":"log","message":"key ${secret}"}\n`) }));
  await writeFile(join(work, "failed.png"), Buffer.from(await png(320, 200, "#ff0000"), "base64"));

  const base: ClassifiedAttempt = {
    attempt: {
      outcome: "failed",
      durationMs: 4210,
      error: { kind: "assertion", message: `Error: expect(locator).toBeHidden() failed | token ${secret}`, location: "scenarios/x.e2e.ts:18" },
    },
    artifacts: {
      screenshots: [
        { label: "opened", source: { base64: await png(640, 360, "#eeeeee") } },
        { label: "streaming", source: { base64: await png(640, 360, "#336699") } },
      ],
      failureScreenshot: { path: join(work, "failed.png") },
      trace: { path: join(work, "trace.zip") },
      serverLog: { base64: Buffer.from(`listening\nOPENAI_API_KEY=${secret}\n`).toString("base64") },
    },
  };
  const head: ClassifiedAttempt = {
    attempt: { outcome: "passed", durationMs: 3100 },
    artifacts: {
      screenshots: [
        { label: "opened", source: { base64: await png(640, 360, "#eeeeee") } },
        { label: "streaming", source: { base64: await png(640, 360, "#993366") } },
        { label: "finished", source: { base64: await png(640, 360, "#339966") } },
      ],
    },
  };
  const dir = join(work, "report");
  const sides = { base: { ref: "main", attempts: [base.attempt] }, head: { ref: "fix", attempts: [head.attempt] } };
  const report = await writeReport({
    dir,
    decision: decide(sides.base, sides.head),
    scenario: { file: "scenarios/x.e2e.ts", title: "Stop button goes away", sha256: "ab".repeat(32) },
    base: { ref: "main", commit: { sha: "a".repeat(40), subject: "Add streaming" }, attempts: [base] },
    head: { ref: "fix", commit: { sha: "b".repeat(40), subject: "Handle the end of the stream" }, attempts: [head] },
    totalMs: 9000.4,
    command: "pnpm prove-scenario --base main --head fix scenarios/x.e2e.ts",
    secrets,
  });
  return { dir, report };
}

describe("the report folder", () => {
  it("holds report.json with the contract's fields, the images, the trace and the server log", async () => {
    const { dir, report } = await proofWithEvidence();
    const json = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as ProofReport;
    expect(json).toEqual(report);
    expect(Object.keys(json)).toEqual([
      "schema", "verdict", "exitCode", "reasonCode", "reason", "scenario", "base", "head", "dir", "comparisonImage", "markdown", "timings", "command",
    ]);
    expect([json.schema, json.verdict, json.exitCode, json.reasonCode]).toEqual(["scenario-proof/v1", "proved", 0, "proved"]);
    expect(json.base).toEqual({
      ref: "main",
      sha: "a".repeat(40),
      subject: "Add streaming",
      attempts: [{ outcome: "failed", durationMs: 4210, error: { kind: "assertion", message: "Error: expect(locator).toBeHidden() failed | token [redacted:OPENAI_API_KEY]", location: "scenarios/x.e2e.ts:18" } }],
      screenshots: [
        { label: "opened", path: "images/base-opened.png", width: 640, height: 360 },
        { label: "streaming", path: "images/base-streaming.png", width: 640, height: 360 },
      ],
      trace: "base/trace.zip",
      serverLog: "base/server.log",
    });
    expect(json.head.screenshots.map((shot) => shot.path)).toEqual(["images/head-opened.png", "images/head-streaming.png", "images/head-finished.png"]);
    expect([json.head.trace, json.head.serverLog]).toEqual([null, null]);
    expect([json.comparisonImage, json.markdown, json.timings, json.dir]).toEqual(["comparison.png", "report.md", { totalMs: 9000 }, dir]);
    expect((await sharp(join(dir, "images/failure-base.png")).metadata()).width).toBe(320);
  });

  it("has one row per label in scenario order, 'not reached' where base stopped, and the failure row", async () => {
    const { dir } = await proofWithEvidence();
    const markdown = await readFile(join(dir, "report.md"), "utf8");
    const rows = markdown.split("\n").filter((line) => line.startsWith("| **"));
    expect(rows.map((row) => row.split(" | ").map((cell) => /src="([^"]+)"/.exec(cell)?.[1] ?? cell.replace(/^\| /, "").replace(/ \|$/, "")))).toEqual([
      ["**opened**", "images/base-opened.png", "images/head-opened.png"],
      ["**streaming**", "images/base-streaming.png", "images/head-streaming.png"],
      ["**finished**", "not reached", "images/head-finished.png"],
      ["**failure screenshot**", "images/failure-base.png", "no failure"],
    ]);
    expect(markdown.split("\n")[0]).toBe("## ✅ Proved: Stop button goes away");
    expect(markdown).toContain("**Base: assertion** at `scenarios/x.e2e.ts:18`");
    expect(markdown).toContain("pnpm prove-scenario --base main --head fix scenarios/x.e2e.ts");
  });

  it("has comparison.png with both columns and every row", async () => {
    const { dir } = await proofWithEvidence();
    const { width, height } = await sharp(join(dir, "comparison.png")).metadata();
    expect(width).toBe(16 * 3 + 640 * 2);
    expect(height).toBeGreaterThan(4 * 360);
  });

  it("never holds the value of a secret-looking environment variable, in any file", async () => {
    const { dir } = await proofWithEvidence();
    for (const file of await filesUnder(dir)) {
      const bytes = await readFile(file);
      const contents = file.endsWith(".zip") ? Object.values(unzipSync(bytes)) : [bytes];
      const text = contents.map((content) => Buffer.from(content).toString("latin1")).join("\n");
      expect(text, file).not.toContain(secret);
    }
    expect(await readFile(join(dir, "base/server.log"), "utf8")).toBe("listening\nOPENAI_API_KEY=[redacted:OPENAI_API_KEY]\n");
  });
});
