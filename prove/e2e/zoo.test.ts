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

/** More pixels than a blinking text caret or a repainted glyph: a change a person sees. */
const visibleChange = 500;

/** How many pixels of two screenshots of one size differ: sharp's difference blend, thresholded to changed or not. */
async function differingPixels(dir: string, a: string, b: string): Promise<number> {
  const second = await sharp(join(dir, b)).removeAlpha().png().toBuffer();
  const difference = await sharp(join(dir, a)).removeAlpha().composite([{ input: second, blend: "difference" }]).png().toBuffer();
  const { width = 0, height = 0 } = await sharp(difference).metadata();
  // stats() reads its input, not the pipeline's output, so the thresholded image is made first.
  const thresholded = await sharp(difference).threshold(1).png().toBuffer();
  const [changed] = (await sharp(thresholded).stats()).channels;
  return Math.round(((changed?.mean ?? 0) / 255) * width * height);
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
    // Base fails by waiting out an assertion; half the config's 10 s is still ample for head's to pass.
    const prover = startProver(["demo", bug.id, "--out", out, "--json", "--expect-timeout", "5000"]);
    const run = await prover;

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(out, "report.md")}`);
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as ProofReport;
    expect(JSON.parse(run.stdout)).toEqual(report);
    expect([report.verdict, report.exitCode, report.reasonCode]).toEqual(["proved", 0, "proved"]);
    expect(report.scenario.file).toBe(bug.scenario);
    expect(report.base.attempts).toHaveLength(1);
    const [failure] = report.base.attempts;
    expect(failure).toMatchObject({ outcome: "failed", error: { location: expect.stringMatching(new RegExp(`^${bug.scenario}:\\d+$`)) } });
    expect(failedKinds).toContain(failure?.error?.kind);
    expect(report.reason).toContain(`The scenario fails on base (bug/${bug.id}) with ${failure?.error?.kind} at ${failure?.error?.location}: `);
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

    // Base shows the bug where head does not: at a label both took, or in base's failure screenshot against head's
    // screenshot of the step base never reached (most zoo scenarios take their common labels before the bug shows).
    const unreached = report.head.screenshots[baseLabels.length];
    if (unreached === undefined) throw new Error("head took no screenshot after base's last");
    const failureShot = { label: `failure against ${unreached.label}`, path: "images/failure-base.png", width: unreached.width, height: unreached.height };
    for (const shot of [...report.base.screenshots, ...report.head.screenshots, failureShot]) {
      expect(await sharp(join(out, shot.path)).metadata(), shot.path).toMatchObject({ width: shot.width, height: shot.height });
    }
    const pairs = [
      ...report.base.screenshots.map((base, index) => [base.label, base.path, report.head.screenshots[index]?.path ?? ""] as const),
      [failureShot.label, failureShot.path, unreached.path] as const,
    ];
    const changes = Object.fromEntries(await Promise.all(pairs.map(async ([label, base, head]) => [label, await differingPixels(out, base, head)] as const)));
    expect(Math.max(...Object.values(changes)), `pixels that differ between base and head: ${JSON.stringify(changes)}`).toBeGreaterThan(visibleChange);
    expect((await sharp(join(out, "comparison.png")).metadata()).width).toBeGreaterThan(1280);

    // The sandbox (in scenario-prover-<pid>-demo-…), its worktrees and the apps' homes (in scenario-prover-<pid>-…) are gone.
    expect((await readdir(tmpdir())).filter((name) => name.startsWith(`scenario-prover-${prover.pid}-`))).toEqual([]);
    expect(await processesMentioning(`scenario-prover-${prover.pid}-`)).toEqual([]);
  });
});
