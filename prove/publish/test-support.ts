import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import sharp from "sharp";
import type { ComparisonRow } from "../report/comparison.ts";
import { renderMarkdown } from "../report/markdown.ts";
import type { ProofReport, ReportScreenshot, SideTimings } from "../report/schema.ts";

/** A side's timings in a report made up for a test: no step took place. */
export const noSteps: SideTimings = { worktreeMs: null, installMs: null, buildMs: null, runs: [] };

/** Test helpers for publishing: report folders as a proof writes them, and the link targets in Markdown. */

export interface SampleProof {
  readonly file: string;
  readonly title: string;
  readonly baseSha: string;
  readonly headSha: string;
}

const shot = (side: "base" | "head", label: string): ReportScreenshot => ({
  label,
  path: `images/${side}-${label}.png`,
  width: 8,
  height: 6,
});

/** A proved report with two screenshot rows, a failure screenshot, comparison.png, and base's trace and server log. */
export function sampleReport(proof: SampleProof): {
  readonly report: ProofReport;
  readonly markdown: string;
  readonly images: ReadonlyArray<string>;
} {
  const side = (name: "base" | "head", sha: string, passed: boolean) => ({
    ref: name === "base" ? "main" : "fix",
    sha,
    subject: name === "base" ? "Add streaming" : "Fix the stop button",
    attempts: [
      passed
        ? { outcome: "passed" as const, durationMs: 900, runMs: 2000 }
        : {
            outcome: "failed" as const,
            durationMs: 1200,
            runMs: 2500,
            error: {
              kind: "assertion" as const,
              message: 'Expected hidden; see [the docs](docs/stop.md) and <img src="local.png">',
              location: `${proof.file}:9`,
            },
          },
    ],
    screenshots: [shot(name, "opened"), shot(name, "streaming")],
    trace: passed ? null : `${name}/trace.zip`,
    serverLog: passed ? null : `${name}/server.log`,
  });
  const report: ProofReport = {
    schema: "scenario-proof/v1",
    verdict: "proved",
    exitCode: 0,
    reasonCode: "proved",
    reason: "The scenario fails on base and passes on head.",
    scenario: { file: proof.file, title: proof.title, sha256: "ab".repeat(32) },
    base: side("base", proof.baseSha, false),
    head: side("head", proof.headSha, true),
    dir: "reports/x",
    comparisonImage: "comparison.png",
    differences: { threshold: 0.001, tolerance: 16, labels: [] },
    markdown: "report.md",
    timings: { totalMs: 5000, listingMs: null, base: noSteps, head: noSteps, reportMs: 0 },
    command: `pnpm prove-scenario --base main --head fix ${proof.file}`,
    redactions: { environment: 0, secretShaped: 0 },
  };
  const failure = { label: "failure screenshot", path: "images/failure-base.png", width: 8, height: 6 };
  const rows: ComparisonRow[] = [
    { caption: "opened", base: report.base.screenshots[0], head: report.head.screenshots[0] },
    { caption: "streaming", base: report.base.screenshots[1], head: report.head.screenshots[1] },
    { caption: "failure screenshot", base: failure, head: undefined },
  ];
  const error = report.base.attempts[0]?.error;
  const markdown = renderMarkdown({ report, rows, errors: error === undefined ? [] : [{ side: "base", error }] });
  const images = [...report.base.screenshots, ...report.head.screenshots, failure].map((screenshot) => screenshot.path);
  return { report, markdown, images };
}

const colours = ["#ff0000", "#00ff00", "#0000ff", "#ffff00", "#00ffff", "#ff00ff", "#888888"];

/** Writes a report folder at `dir` like the report writer does, each image a distinct small PNG; returns the report. */
export async function writeSampleReport(dir: string, proof: SampleProof): Promise<ProofReport> {
  const { report, markdown, images } = sampleReport(proof);
  const files: Array<readonly [string, Buffer | string]> = [
    ["report.json", `${JSON.stringify(report, null, 2)}\n`],
    ["report.md", markdown],
    ["base/trace.zip", "PK not really a zip"],
    ["base/server.log", "listening on 3000\n"],
  ];
  for (const [index, path] of [...images, "comparison.png"].entries()) {
    const colour = colours[index % colours.length] ?? "#000000";
    files.push([
      path,
      await sharp({ create: { width: 8, height: 6, channels: 3, background: colour } })
        .png()
        .toBuffer(),
    ]);
  }
  for (const [path, contents] of files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), contents);
  }
  return report;
}

/** Every link target in `markdown` outside code: Markdown links and images, reference definitions, and href/src attributes. */
export function linkTargets(text: string): string[] {
  const markdown = text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1[ \t]*$/gm, "").replace(/`[^`\n]*`/g, "");
  return [
    ...[...markdown.matchAll(/\]\(\s*<?([^)\s>]*)/g)].map((match) => match[1] ?? ""),
    ...[...markdown.matchAll(/^\s*\[[^\]]+\]:\s*<?([^\s>]+)/gm)].map((match) => match[1] ?? ""),
    ...[...markdown.matchAll(/\b(?:href|src)\s*=\s*(["'])(.*?)\1/gi)].map((match) => match[2] ?? ""),
  ];
}
