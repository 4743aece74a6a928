import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listBugs } from "../demo/index.ts";
import type { ProofReport } from "../index.ts";
import { checkout, processesMentioning, startProver } from "./support/prover.ts";

const bugs = await listBugs(checkout);
const failedKinds = ["assertion", "timeout", "app-error", "unexpected-request", "unplayed-transcript"];

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-zoo-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function image(dir: string, path: string) {
  const { width, height } = await sharp(join(dir, path)).metadata();
  return { width, height, pixels: await sharp(join(dir, path)).raw().toBuffer() };
}

/** report.md's table: one row per label, each cell the image it shows or its text. */
async function markdownRows(dir: string): Promise<string[][]> {
  const markdown = await readFile(join(dir, "report.md"), "utf8");
  return markdown
    .split("\n")
    .filter((line) => line.startsWith("| **"))
    .map((row) => row.split(" | ").map((cell) => /src="([^"]+)"/.exec(cell)?.[1] ?? cell.replace(/^\| |\*\*| \|$/g, "")));
}

describe("prove-scenario demo over the bug zoo", () => {
  it.each(bugs)("$id: proved in its sandbox, base failing in its scenario and head passing, with both sides' screenshots", async (bug) => {
    const out = join(work, bug.id);
    const prover = startProver(["demo", bug.id, "--out", out]);
    const run = await prover;

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(out, "report.md")}`);
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as ProofReport;
    expect([report.verdict, report.exitCode, report.reasonCode]).toEqual(["proved", 0, "proved"]);
    expect(report.scenario.file).toBe(bug.scenario);
    expect(report.base.attempts).toHaveLength(1);
    const [failure] = report.base.attempts;
    expect(failure).toMatchObject({ outcome: "failed", error: { location: expect.stringMatching(new RegExp(`^${bug.scenario}:\\d+$`)) } });
    expect(failedKinds).toContain(failure?.error?.kind);
    expect(report.reason).toContain(`The scenario fails on base (base) with ${failure?.error?.kind} at ${failure?.error?.location}: `);
    expect(report.head.attempts).toMatchObject([{ outcome: "passed" }]);
    expect([report.base.subject, report.head.subject]).toEqual([`agent-chat: ${bug.title}`, `Fix: ${bug.title}`]);
    expect(report.command).toBe(`pnpm prove-scenario demo ${bug.id}`);

    // Base stopped at its failure, so its labels are the first of head's; the rest were not reached.
    const baseLabels = report.base.screenshots.map((shot) => shot.label);
    const headLabels = report.head.screenshots.map((shot) => shot.label);
    expect(baseLabels.length).toBeGreaterThan(0);
    expect(headLabels.length).toBeGreaterThan(baseLabels.length);
    expect(headLabels.slice(0, baseLabels.length)).toEqual(baseLabels);
    expect(await markdownRows(out)).toEqual([
      ...report.head.screenshots.map((head) => [head.label, report.base.screenshots.find((base) => base.label === head.label)?.path ?? "not reached", head.path]),
      ["failure screenshot", "images/failure-base.png", "no failure"],
    ]);
    const markdown = await readFile(join(out, "report.md"), "utf8");
    expect(markdown).toContain(`**Base: ${failure?.error?.kind}** at \`${failure?.error?.location}\``);
    expect(markdown).toContain("```sh\npnpm prove-scenario demo " + bug.id + "\n```");

    for (const shot of [...report.base.screenshots, ...report.head.screenshots]) {
      expect(await image(out, shot.path), shot.path).toMatchObject({ width: shot.width, height: shot.height });
    }
    // What base showed when it failed against what head showed at the step base never reached: the bug and its absence.
    const unreached = report.head.screenshots[baseLabels.length];
    if (unreached === undefined) throw new Error("head took no screenshot after base's last");
    const [baseFailure, headAfter] = await Promise.all([image(out, "images/failure-base.png"), image(out, unreached.path)]);
    expect([baseFailure.width, baseFailure.height]).toEqual([headAfter.width, headAfter.height]);
    expect(baseFailure.pixels.equals(headAfter.pixels)).toBe(false);
    expect((await sharp(join(out, "comparison.png")).metadata()).width).toBeGreaterThan(1280);

    // The sandbox (in scenario-prover-<pid>-demo-…), its worktrees and the apps' homes (in scenario-prover-<pid>-…) are gone.
    expect((await readdir(tmpdir())).filter((name) => name.startsWith(`scenario-prover-${prover.pid}-`))).toEqual([]);
    expect(await processesMentioning(`scenario-prover-${prover.pid}-`)).toEqual([]);
  });
});
