import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BisectReport } from "../bisect/schema.ts";
import {
  brokenSubject,
  bugAuthor,
  bugSubject,
  makeLightBisectRepo,
  unbrokenSubject,
  writeLightScenario,
  type BisectRepo,
} from "./support/bisect-repo.ts";
import { linkTargets } from "../publish/test-support.ts";
import { checkout, processesMentioning, publishFrom, repositoryState, startProver } from "./support/prover.ts";

/**
 * 32 commits after v1: the bug comes in with commit 21, and commits 8, 16 and 24 do not install
 * (each undone by the next). The search probes 16 (skipped) then 17, 24 (skipped, not even
 * installed: 16's manifests failed) then 25, then 21, 19 and 20: the answer is 21, and no skipped
 * commit sits right before it, so it is a single commit.
 */
const history = { length: 32, bug: 21, broken: [8, 16, 24] };

/** What a bisection runs: a repository, its scenario config and scenario, and the expect timeout its failing runs wait out. */
interface Target {
  readonly repo: BisectRepo;
  readonly config: string;
  readonly scenario: string;
  readonly expectTimeout: string;
}

interface Bisection {
  readonly exitCode: number | undefined;
  readonly stderr: string;
  readonly stdout: string;
  readonly pid: number | undefined;
  /** bisect.json as written, when there is one. */
  readonly report: BisectReport | undefined;
  readonly out: string;
  readonly repo: BisectRepo;
}

let work = "";
/**
 * The lightest app a bisection needs, a node:http page with no dependencies (pnpm still installs
 * it), in two repositories of the same history: one for the bisection that finds the bug, its
 * installs, screenshots and report; one for the cases that need only an outcome at each end, an
 * install that fails, or a step under way.
 */
let app: Target;
let light: Target;
let before: Awaited<ReturnType<typeof repositoryState>>;
let lightBefore: Awaited<ReturnType<typeof repositoryState>>;
let found: Bisection;
let unchanged: Bisection;
let newEndBroken: Bisection;
let badRef: Bisection;
let interrupted: Bisection;

/** Starts `prove-scenario bisect … --json` against a target, into its own folder under `work`. */
function startBisect(target: Target, out: string, args: ReadonlyArray<string>) {
  return startProver([
    "bisect",
    "--repo",
    target.repo.dir,
    "--config",
    target.config,
    "--expect-timeout",
    target.expectTimeout,
    target.scenario,
    "--out",
    out,
    "--json",
    ...args,
  ]);
}

/** Runs a bisection to its end and reads bisect.json, when it wrote one. */
async function bisect(target: Target, name: string, args: ReadonlyArray<string>): Promise<Bisection> {
  const out = join(work, name);
  const prover = startBisect(target, out, args);
  const run = await prover;
  const json = join(out, "bisect.json");
  const report = existsSync(json) ? (JSON.parse(await readFile(json, "utf8")) as BisectReport) : undefined;
  return { exitCode: run.exitCode, stderr: run.stderr, stdout: run.stdout, pid: prover.pid, report, out, repo: target.repo };
}

/**
 * A bisection stopped by Ctrl-C (SIGINT) once its first step's Playwright run has started: a
 * step's worktree, the ends' kept install, a browser and an app server are all live then.
 */
async function interruptedAtFirstStep(target: Target, name: string, args: ReadonlyArray<string>): Promise<Bisection> {
  const out = join(work, name);
  const prover = startBisect(target, out, args);
  let seen = "";
  const running = new Promise<boolean>((resolve) => {
    prover.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (/^step1 run +…$/m.test(seen)) resolve(true);
    });
  });
  if (await Promise.race([running, prover.then(() => false)])) prover.kill("SIGINT");
  const run = await prover;
  return { exitCode: run.exitCode, stderr: run.stderr, stdout: run.stdout, pid: prover.pid, report: undefined, out, repo: target.repo };
}

/** What each bisection left behind: its temporary folders (named after its pid) and any process working in the sandbox. */
async function leftovers(run: Bisection) {
  const roots = [...new Set([tmpdir(), "/tmp"])];
  const folders = (
    await Promise.all(roots.map(async (root) => (await readdir(root)).filter((name) => name.startsWith(`scenario-prover-${run.pid}.`))))
  ).flat();
  return { folders, processes: await processesMentioning(run.repo.dir) };
}

const sha = (commit: number, repo: BisectRepo = app.repo) => repo.shas[commit] ?? "";
const short = (commit: number, repo: BisectRepo = app.repo) => sha(commit, repo).slice(0, 7);
const lightSha = (commit: number) => sha(commit, light.repo);
const lightShort = (commit: number) => short(commit, light.repo);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-bisect-"));
  // The light app's page is whole once it loads: its passing runs check at once, and its failing ones wait out 2 s.
  // The finding bisection's scenario lives in its repository, untracked, as a developer's new scenario does.
  const repo = await makeLightBisectRepo(join(work, "found-app"), history);
  app = { repo, ...(await writeLightScenario(join(repo.dir, "scenarios"))), expectTimeout: "2000" };
  light = {
    repo: await makeLightBisectRepo(join(work, "sum-app"), history),
    ...(await writeLightScenario(join(work, "sum-scenario"))),
    expectTimeout: "2000",
  };
  before = await repositoryState(app.repo.dir);
  lightBefore = await repositoryState(light.repo.dir);
  // The bisection that finds the bug runs beside the others: they share nothing but the machine.
  [found] = await Promise.all([
    bisect(app, "found", ["--old", "v1", "--new", "main"]),
    (async () => {
      unchanged = await bisect(light, "unchanged", ["--old", lightSha(26), "--new", lightSha(30)]);
      newEndBroken = await bisect(light, "new-end-broken", ["--old", lightSha(22), "--new", lightSha(24)]);
      badRef = await bisect(light, "bad-ref", ["--old", "v0", "--new", "main"]);
      interrupted = await interruptedAtFirstStep(light, "interrupted", ["--old", lightSha(20), "--new", lightSha(22)]);
    })(),
  ]);
  // A bisection in worktrees, seven Playwright runs, beside the other cases' six: a minute or more on two cores.
}, 600_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("prove-scenario bisect on a sandbox of a light app", () => {
  it("finds the commit that introduced the bug, skipping the commits that do not install, within ⌈log2 n⌉ + skipped steps", async () => {
    const { report, stderr } = found;
    expect(found.exitCode, stderr).toBe(0);
    if (report === undefined) throw new Error(`no bisect.json:\n${stderr}`);
    expect(JSON.parse(found.stdout)).toEqual(report);
    expect(stderr.trimEnd().split("\n").slice(-2)).toEqual([`found (exit 0): ${report.reason}`, `bisect: ${join(found.out, "bisect.md")}`]);
    expect(report).toMatchObject({
      schema: "scenario-bisect/v1",
      result: "found",
      exitCode: 0,
      direction: "introduced",
      old: { ref: "v1", sha: sha(0), outcome: "pass" },
      new: { ref: "main", sha: sha(32), outcome: "fail" },
      commit: { sha: sha(21), subject: bugSubject, author: bugAuthor, date: "2026-11-01T21:00:00+01:00" },
      lastOld: { sha: sha(20), subject: "docs: note 20" },
      candidates: [{ sha: sha(21) }],
      commits: 32,
    });
    expect(report.reason).toBe(
      `${short(21)} "${bugSubject}" by ${bugAuthor} (2026-11-01T21:00:00+01:00) introduced the failure: the scenario passes at ${short(20)}, the commit before it, and fails at ${short(21)}.`,
    );
    expect(report.steps.map((step) => [app.repo.shas.indexOf(step.sha), step.outcome])).toEqual([
      [16, "skip"],
      [17, "pass"],
      [24, "skip"],
      [25, "fail"],
      [21, "fail"],
      [19, "pass"],
      [20, "pass"],
    ]);
    expect(report.skipped.map((commit) => [commit.sha, commit.subject])).toEqual([
      [sha(16), brokenSubject],
      [sha(24), brokenSubject],
    ]);
    expect(report.skipped.map((commit) => commit.why)).toEqual([
      `could not run (install): install failed: \`pnpm install --frozen-lockfile\` in the repository's root at ${short(16)} exited with code 1.`,
      `could not run (install): not tried: the install failed at ${short(16)}, whose dependency manifests are the same.`,
    ]);
    expect(report.steps.length).toBeLessThanOrEqual(Math.ceil(Math.log2(report.commits)) + report.skipped.length);
    expect(report.maxSteps).toBe(Math.ceil(Math.log2(32)) + 2);
    expect(app.repo.subjects[17]).toBe(unbrokenSubject);

    // One install per state of the dependency manifests: v1's, and the broken one's; every other commit hard-links v1's.
    expect(stderr.split("\n").filter((line) => / install {3}pnpm install --frozen-lockfile/.test(line))).toEqual([
      expect.stringMatching(/^old {3}install {3}pnpm install --frozen-lockfile {2}\d/),
      expect.stringMatching(/^step1 install {3}pnpm install --frozen-lockfile {2}failed after /),
    ]);
    expect(
      stderr
        .split("\n")
        .filter((line) => line.includes("install   old's, hard-linked (the same dependency manifests)"))
        .map((line) => line.slice(0, 5)),
    ).toEqual(["new  ", "step2", "step4", "step5", "step6", "step7"]);
    expect(stderr).toContain(`\nstep 1: ${short(16)} skip, 32 commits left, about 5 steps: ${brokenSubject} (could not run (install): `);
    expect(stderr).toContain(`\nstep 7: ${short(20)} pass, 1 commit left, about 0 steps: docs: note 20\n`);
  });

  it("puts the last passing commit's screenshots beside the first failing one's, and the command to run it again", async () => {
    const report = found.report;
    if (report === undefined) throw new Error("no bisect.json");
    expect([report.screenshots.lastOld, report.screenshots.firstNew]).toEqual([sha(20), sha(21)]);
    const rows = report.screenshots.rows;
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[0]?.lastOld?.label).toBe(rows[0]?.label);
    // The failing commit stopped before the passing one's last step: its failure screenshot sits in that row.
    expect(rows.map((row) => row.firstNew?.label)).toContain("failure screenshot");
    for (const row of rows) {
      for (const shot of [row.lastOld, row.firstNew]) {
        if (shot !== null)
          expect(await sharp(join(found.out, shot.path)).metadata(), shot.path).toMatchObject({ width: shot.width, height: shot.height });
      }
    }
    const markdown = await readFile(join(found.out, "bisect.md"), "utf8");
    expect(markdown.split("\n")[0]).toBe(`## 🔎 Found: \`${short(21)}\` introduced the failure`);
    expect(markdown).toContain(`| last pass \`${short(20)}\` | first fail \`${short(21)}\` |`);
    expect(markdown).toContain(`| 1 | \`${short(16)}\` | ${brokenSubject} | skip: could not run (install): `);
    // Its paths are from the invoking checkout, where the command runs.
    const path = (file: string) => relative(checkout, file);
    expect(report.command).toBe(
      `pnpm prove-scenario bisect --old ${sha(0).slice(0, 12)} --new ${sha(32).slice(0, 12)} ${path(app.scenario)} --repo ${path(app.repo.dir)} --config ${path(app.config)} --expect-timeout 2000`,
    );
    expect(markdown).toContain("```sh\n" + report.command + "\n```");
    expect(JSON.stringify(report)).not.toContain(tmpdir() + "/scenario-prover-");
  });

  it("exits 1 when both ends have the same outcome, saying which", () => {
    expect(unchanged.exitCode, unchanged.stderr).toBe(1);
    expect(unchanged.report).toMatchObject({
      result: "unchanged",
      exitCode: 1,
      direction: null,
      old: { outcome: "fail" },
      new: { outcome: "fail" },
      commit: null,
      steps: [],
      skipped: [],
    });
    expect(unchanged.report?.reason).toBe(
      `The scenario fails at both ends, --old ${lightShort(26)} and --new ${lightShort(30)}, so there is no change to find between them. ` +
        "To find the commit that broke it, pass as --old an earlier commit where it passes; to find one that fixed it, pass as --new a commit where it passes.",
    );
    expect(unchanged.stderr.trimEnd().split("\n").at(-1)).toBe(`bisect: ${join(unchanged.out, "bisect.md")}`);
  });

  it("exits 2 when an end cannot run, naming that end and why", () => {
    expect(newEndBroken.exitCode, newEndBroken.stderr).toBe(2);
    expect(newEndBroken.report).toMatchObject({
      result: "could-not-run",
      exitCode: 2,
      old: { outcome: "fail" },
      new: { outcome: "error" },
      steps: [],
    });
    expect(newEndBroken.report?.reason).toBe(
      `The scenario gave no outcome at --new ${lightShort(24)}: could not run (install): install failed: \`pnpm install --frozen-lockfile\` in the repository's root at ${lightShort(24)} exited with code 1. ` +
        "A bisection needs the scenario's outcome at both ends: make it run there, or pass as that end a commit where it does.",
    );
  });

  it("exits 2 on a ref that names no commit, naming the flag, with no report", () => {
    expect(badRef.exitCode, badRef.stderr).toBe(2);
    expect(badRef.stdout).toBe("");
    expect(badRef.report).toBeUndefined();
    expect(badRef.stderr).toContain(`could not run (exit 2): --old "v0" does not name a commit in ${light.repo.dir}.`);
  });

  it("stops on Ctrl-C in the middle of a step, exiting 2 with no report", () => {
    expect(interrupted.stderr).toMatch(/^step1 run +…$/m);
    expect(interrupted.exitCode, interrupted.stderr).toBe(2);
    expect(interrupted.stderr.trimEnd().split("\n").slice(-1)).toEqual([
      "could not run (exit 2): Interrupted by SIGINT; worktrees and temporary files were removed. Run the bisection again to get an answer.",
    ]);
    expect([interrupted.stdout, existsSync(join(interrupted.out, "bisect.json"))]).toEqual(["", false]);
  });

  it("leaves the sandbox's HEAD, branches, status and worktrees as they were, and no folder or process behind", async () => {
    expect(await repositoryState(app.repo.dir)).toEqual(before);
    expect(await repositoryState(light.repo.dir)).toEqual(lightBefore);
    for (const run of [found, unchanged, newEndBroken, badRef, interrupted])
      expect(await leftovers(run)).toEqual({ folders: [], processes: [] });
  });

  it("is published for a pull request: its screenshots go to <scenario>/bisect-<old7>-<new7>/ on the branch, and pr.md links each one there", async () => {
    const report = found.report;
    if (report === undefined) throw new Error("no bisect.json");
    const published = await publishFrom(app.repo.dir, found.out);
    expect(published.exitCode, published.stderr).toBe(0);
    // The scenario's folder (its path from the invoking checkout, without .e2e.ts), then bisect-<old7>-<new7>.
    const folder = published.files[0]?.split("/images/")[0] ?? "";
    expect(folder).toMatch(new RegExp(`^[^./].*/found-app/scenarios/sum/bisect-${short(0)}-${short(32)}$`));
    const images = report.screenshots.rows
      .flatMap((row) => [row.lastOld?.path, row.firstNew?.path])
      .filter((path): path is string => path !== undefined);
    expect(images.length).toBeGreaterThan(2);
    expect(published.files).toEqual([...new Set(images)].map((path) => `${folder}/${path}`).sort());
    const targets = linkTargets(published.pr);
    expect(targets.filter((target) => target.startsWith("https://img.example/proofs/")).length).toBeGreaterThanOrEqual(images.length);
    // No relative link is left: a pull request could not show it.
    expect(targets.filter((target) => !/^https?:\/\//.test(target))).toEqual([]);
  });
});
