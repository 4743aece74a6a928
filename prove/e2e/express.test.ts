import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { execa } from "execa";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BisectReport } from "../bisect/schema.ts";
import { formatDuration } from "../outcome/durations.ts";
import { makeExpressRepo, type ExpressRepo } from "./support/express-repo.ts";
import {
  afterLaterRun,
  checkout,
  cleanedUp,
  config,
  fixtures,
  killOncePrinted,
  processesMentioning,
  prove,
  reportDir,
  repositoryState,
  startProver,
  sumScenario,
} from "./support/prover.ts";

let work: string;
let repo: ExpressRepo;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-express-"));
  repo = await makeExpressRepo(work);
  // A developer's checkout in the middle of work, on a detached HEAD: an edit, an untracked file and a stash.
  await writeFile(join(repo.dir, "notes.txt"), "stashed idea\n");
  await repo.git("add", "notes.txt");
  await repo.git("stash", "push", "-q", "-m", "an idea");
  await writeFile(join(repo.dir, "README.md"), "# Sum\n\nWork in progress.\n");
  await writeFile(join(repo.dir, "scratch.txt"), "untracked\n");
  await repo.git("checkout", "-q", "--detach");
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const out = (name: string) => join(work, "reports", name);
const against = (name: string) => ["--repo", repo.dir, "--config", config, "--out", out(name)];
/** The sum-app repository as the report names it: by its path from the invoking checkout. */
const repoShown = () => relative(checkout, repo.dir);

async function pixels(file: string) {
  return sharp(file).raw().toBuffer();
}

describe("proving a fix in a plain Express repository that does not contain scenario-prover", () => {
  it("proves it: the total is wrong on base and right on head, with both sides' screenshots side by side", async () => {
    const before = await repositoryState(repo.dir);
    const { exitCode, report, stderr } = await prove(["--base", "bug", "--head", "fix", sumScenario, ...against("proved")]);
    const dir = reportDir(report);

    expect([exitCode, report.verdict, report.reasonCode]).toEqual([0, "proved", "proved"]);
    expect(report.scenario).toMatchObject({ file: sumScenario, title: "adding 1 and 2 shows a total of 3" });
    expect(report.base.attempts).toMatchObject([{ outcome: "failed", error: { kind: "assertion", location: `${sumScenario}:11` } }]);
    expect(report.base.attempts[0]?.error?.message).toContain('Received: "Total: 12"');
    expect(report.head.attempts).toMatchObject([{ outcome: "passed" }]);
    expect(report.base.subject).toBe("Add the sum page");
    expect(report.command).toBe(
      `pnpm prove-scenario --base ${report.base.sha?.slice(0, 12)} --head ${report.head.sha?.slice(0, 12)} ${sumScenario} --repo ${repoShown()} --config ${config}`,
    );
    // Each number is labelled with what it measures, the same in progress and in the report.
    const runLine = /^head {2}run +passed: run (\d+(?:\.\ds|ms)), of which the test (\d+(?:\.\ds|ms))$/m.exec(stderr);
    expect(runLine, stderr).not.toBeNull();
    const [runMs, testMs] = [report.head.attempts[0]?.runMs ?? 0, report.head.attempts[0]?.durationMs ?? 0];
    expect(runMs).toBeGreaterThan(testMs);
    expect([runLine?.[1], runLine?.[2]]).toEqual([formatDuration(runMs), formatDuration(testMs)]);

    const markdown = await readFile(join(dir, "report.md"), "utf8");
    const rows = markdown.split("\n").filter((line) => line.startsWith("| **"));
    expect(
      rows.map((row) => row.split(" | ").map((cell) => /src="([^"]+)"/.exec(cell)?.[1] ?? cell.replace(/^\| |\*\*| \|$/g, ""))),
    ).toEqual([
      ["filled in", "images/base-filled-in.png", "images/head-filled-in.png", "images/diff-filled-in.png"],
      ["after add", "images/base-after-add.png", "images/head-after-add.png", "images/diff-after-add.png"],
      ["total checked", "images/failure-base.png", "images/head-total-checked.png", "images/failure-base-diff.png"],
    ]);
    expect(report.differences.failures?.map((difference) => [difference.label, difference.failure, difference.path])).toEqual([
      ["total checked", "base", "images/failure-base-diff.png"],
    ]);
    // The total is the one thing that differs between the two sides' screenshots, once added.
    expect(report.differences.labels.map((difference) => [difference.label, difference.changedPixels > 0])).toEqual([
      ["filled in", false],
      ["after add", true],
    ]);
    expect(markdown).toContain(`**Base: assertion** at \`${sumScenario}:11\``);
    expect(markdown).toContain(`(fix) Add numbers, not strings — passed (run ${runLine?.[1]}, of which the test ${runLine?.[2]})`);

    for (const shot of [...report.base.screenshots, ...report.head.screenshots]) {
      expect(await sharp(join(dir, shot.path)).metadata()).toMatchObject({ width: 1280, height: 720 });
      expect([shot.width, shot.height]).toEqual([1280, 720]);
    }
    const [baseAfterAdd, headAfterAdd] = await Promise.all([
      pixels(join(dir, "images/base-after-add.png")),
      pixels(join(dir, "images/head-after-add.png")),
    ]);
    expect(baseAfterAdd.equals(headAfterAdd)).toBe(false);
    expect((await sharp(join(dir, "comparison.png")).metadata()).width).toBeGreaterThan(1280);
    expect([report.base.trace, report.base.serverLog, report.head.trace]).toEqual(["base/trace.zip", "base/server.log", null]);
    expect(await readFile(join(dir, "base/server.log"), "utf8")).toContain("sum app listening on");

    expect(await repositoryState(repo.dir)).toEqual(before);
  });

  it("runs two proofs at once in one repository: a no-op change passes on base, a fix that does not work fails on head", async () => {
    // The first as the README runs it, through pnpm, naming base by its full SHA: a correct "not proved" ends with the report's path.
    const fixSha = await repo.git("rev-parse", "fix");
    const viaPnpm = execa("pnpm", ["prove-scenario", "--base", fixSha, "--head", "noop", sumScenario, ...against("noop")], {
      cwd: checkout,
      reject: false,
      stdin: "ignore",
    });
    const [noopRun, broken] = await Promise.all([
      viaPnpm,
      prove(["--base", "bug", "--head", "broken-fix", sumScenario, ...against("broken")]),
    ]);
    expect(noopRun.exitCode).toBe(1);
    expect(noopRun.stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(out("noop"), "report.md")}`);
    expect(`${noopRun.stdout}${noopRun.stderr}`).not.toContain("ELIFECYCLE");
    const noop = { report: JSON.parse(await readFile(join(out("noop"), "report.json"), "utf8")) as typeof broken.report };
    expect([noop.report.verdict, noop.report.reasonCode]).toEqual(["not-proved", "passes-on-base"]);
    expect(noop.report.reason).toBe(
      `The scenario passes on base (${fixSha.slice(0, 7)}), so it does not reproduce the bug there; make it fail on base first.`,
    );
    const markdown = await readFile(join(out("noop"), "report.md"), "utf8");
    expect(markdown).toContain(`| | base \`${fixSha.slice(0, 7)}\` | head`);
    expect(markdown.replace(/```sh\n.*\n```/, "")).not.toContain(fixSha);
    expect([broken.exitCode, broken.report.verdict, broken.report.reasonCode]).toEqual([1, "not-proved", "fails-on-head"]);
    expect(broken.report.head.attempts).toMatchObject([{ outcome: "failed", error: { kind: "assertion", location: `${sumScenario}:11` } }]);
  });

  it("with --keep and a TMPDIR as long as a Mac's, keeps the run folder and each run's short folder with the app's home, says where and how to remove them, and a later proof leaves them", async () => {
    const before = await repo.git("worktree", "list", "--porcelain");
    const temp = join(await mkdtemp(join(tmpdir(), "prove-keep-")), "a-temporary-folder-as-long-as-a-mac-one");
    await mkdir(temp);
    const inTemp = (args: ReadonlyArray<string>) =>
      execa("node", ["bin/prove-scenario.mjs", ...args], { cwd: checkout, reject: false, stdin: "ignore", env: { TMPDIR: temp } });

    const kept = await inTemp(["--base", "bug", "--head", "fix", sumScenario, ...against("kept"), "--keep"]);
    expect(kept.exitCode, kept.stderr).toBe(0);
    const run = /^keeping worktrees, homes and Playwright output in (\S+); remove them with: (.+)$/m.exec(kept.stderr);
    const runDir = run?.[1] ?? "?";
    expect(runDir.startsWith(join(temp, "scenario-prover-"))).toBe(true);
    const shorts = [
      ...kept.stderr.matchAll(
        /^keeping this run's homes and browser files in (\S+) \(the run folder's path is too long for Chromium's socket\); remove them with: rm -rf \1$/gm,
      ),
    ].map((match) => match[1] ?? "?");
    expect(shorts).toHaveLength(2);
    for (const short of shorts) {
      expect(short.startsWith("/tmp/scenario-prover-")).toBe(true);
      expect((await readdir(short)).filter((name) => name.startsWith("scenario-app-"))).toHaveLength(1);
    }
    expect([existsSync(join(runDir, "base")), existsSync(join(runDir, "head"))]).toEqual([true, true]);

    // A later run in the same temporary folders takes none of it for a killed proof's leftovers.
    const later = await inTemp(["run", "--at", "fix", sumScenario, "--repo", repo.dir, "--config", config]);
    expect(later.exitCode, later.stderr).toBe(0);
    for (const dir of [runDir, ...shorts]) {
      expect(later.stderr).not.toContain(`removed ${dir}`);
      expect(existsSync(dir)).toBe(true);
    }

    // Removed as it said, nothing of it is left: no folder, no worktree.
    await execa("sh", ["-c", `${run?.[2] ?? "false"} && rm -rf ${shorts.join(" ")}`]);
    for (const dir of [runDir, ...shorts]) expect(existsSync(dir)).toBe(false);
    expect(await repo.git("worktree", "list", "--porcelain")).toBe(before);
    await rm(dirname(temp), { recursive: true, force: true });
  });

  it("a bisection killed with SIGKILL while its ends run leaves its run folder, which the next run removes and names, with no worktree or process left", async () => {
    const before = await repo.git("worktree", "list", "--porcelain");
    const bisection = startProver([
      "bisect",
      "--old",
      "bug",
      "--new",
      "noop",
      sumScenario,
      "--repo",
      repo.dir,
      "--config",
      config,
      "--out",
      out("bisect-killed"),
    ]);
    const killed = await killOncePrinted(bisection, [/^old {3}run +…$/m, /^new {3}run +…$/m]);
    expect(killed.seen, killed.text).toBe(true);
    expect(killed.folders).toHaveLength(1);

    const next = await startProver(["run", "--at", "fix", sumScenario, "--repo", repo.dir, "--config", config]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(await afterLaterRun(next.stderr, killed.folders)).toEqual(cleanedUp(killed.folders));
    expect(await repo.git("worktree", "list", "--porcelain")).toBe(before);
  });

  it("bisects to no answer when the new end is flaky, making none of its runs after the first two that disagree, with --repeat 3", async () => {
    const dir = out("bisect-flaky");
    const run = await startProver([
      "bisect",
      "--old",
      "bug",
      "--new",
      "flaky",
      "--repeat",
      "3",
      "--expect-timeout",
      "2000",
      sumScenario,
      "--repo",
      repo.dir,
      "--config",
      config,
      "--out",
      dir,
      "--json",
    ]);
    expect(run.exitCode, run.stderr).toBe(2);
    const report = JSON.parse(await readFile(join(dir, "bisect.json"), "utf8")) as BisectReport;
    expect(report.old.attempts.map((attempt) => attempt.outcome)).toEqual(["failed", "failed", "failed"]);
    expect(report.new.attempts.map((attempt) => attempt.outcome).sort()).toEqual(["failed", "passed"]);
    expect(report.new).toMatchObject({ outcome: "flaky", why: "flaky: passed 1 of 2 runs, failed the others" });
    expect(run.stderr).toMatch(
      /^new +run +3\/3 +the last run not made: the commit is already skipped \(flaky: passed 1 of 2 runs, failed the others\)$/m,
    );
  });

  it.each([
    [
      "a ref that does not exist",
      ["--base", "no-such-ref", "--head", "fix", sumScenario],
      "bad-ref",
      undefined,
      ['--base "no-such-ref" does not name a commit', "git -C"],
    ],
    [
      "a --repo folder that does not exist",
      ["--base", "bug", "--head", "fix", sumScenario, "--repo", "/nonexistent/sum-app"],
      "bad-repo",
      undefined,
      ['--repo "/nonexistent/sum-app": there is no folder at /nonexistent/sum-app', "leave --repo out"],
    ],
    [
      "a scenario file that does not exist",
      ["--base", "bug", "--head", "fix", `${fixtures}/missing.e2e.ts`],
      "scenario-not-found",
      undefined,
      ["there is no file at", "Check the path"],
    ],
    [
      "a scenario file holding two tests",
      ["--base", "bug", "--head", "fix", `${fixtures}/two-tests.e2e.ts`],
      "ambiguous-scenario",
      undefined,
      ["Pass --grep <text>", "  - adding 1 and 2 shows 3\n  - adding -1 and 1 shows 0"],
    ],
    [
      "an install that fails on base",
      ["--base", "install-broken", "--head", "fix", sumScenario],
      "base-error",
      "install",
      ["`npm install`", "set app.install", "sum-helpers-1.0.0.tgz"],
    ],
    [
      "an app that crashes before it is ready on base",
      ["--base", "boot-crash", "--head", "fix", sumScenario],
      "base-error",
      "boot",
      ["[scenario-harness:boot]", "Check app.start", "SUM_CONFIG is missing"],
    ],
    [
      "a transcript that cannot be loaded",
      ["--base", "bug", "--head", "fix", `${fixtures}/bad-transcript.e2e.ts`],
      "base-error",
      "transcript",
      ["[scenario-harness:transcript]", "bad-transcript.ndjson:3: this line is not valid JSON", "Fix the line it names"],
    ],
  ])("could not run with %s: exit 2 and a message naming what to change", async (name, args, reasonCode, kind, says) => {
    // A row's own --repo replaces the sum app's (an option given twice is refused).
    const common = against(name.replaceAll(" ", "-")).slice(args.includes("--repo") ? 2 : 0);
    const { exitCode, report, stderr } = await prove([...common, ...args]);
    const dir = reportDir(report);
    expect([exitCode, report.verdict, report.exitCode, report.reasonCode]).toEqual([2, "could-not-run", 2, reasonCode]);
    const message = kind === undefined ? report.reason : (report.base.attempts[0]?.error?.message ?? "");
    if (kind !== undefined) expect(report.base.attempts).toMatchObject([{ outcome: "error", error: { kind } }]);
    for (const text of says) expect(message).toContain(text);
    expect(stderr.split("\n")).toContainEqual(expect.stringMatching(new RegExp(`^could-not-run \\(exit 2, ${reasonCode}\\): `)));
    expect(stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(dir, "report.md")}`);
  });

  it("stops head as soon as base cannot install, instead of waiting out head's scenario, which hangs", async () => {
    const { exitCode, report, stderr } = await prove([
      "--base",
      "install-broken",
      "--head",
      "hang",
      `${fixtures}/hang.e2e.ts`,
      ...against("stopped"),
    ]);
    expect([exitCode, report.verdict, report.reasonCode]).toEqual([2, "could-not-run", "base-error"]);
    expect(report.base.attempts).toMatchObject([{ outcome: "error", error: { kind: "install" } }]);
    expect(report.head.attempts).toEqual([]);
    expect(stderr).toContain("\nhead  stopped    base could not run the scenario, so nothing left to run on head can change the verdict\n");
    expect(await readFile(join(reportDir(report), "report.md"), "utf8")).toMatch(/^- head: `[0-9a-f]{7}` \(hang\) .* — not run$/m);
    expect(await processesMentioning(repo.dir)).toEqual([]);
  });

  it("runs one side for git bisect run: 0 where the scenario passes, 1 where it fails, 125 where it cannot run", async () => {
    const runAt = (ref: string) => startProver(["run", "--at", ref, sumScenario, "--repo", repo.dir, "--config", config]);
    const [fixed, buggy, crashing] = await Promise.all([runAt("fix"), runAt("bug"), runAt("boot-crash")]);
    expect([fixed.exitCode, buggy.exitCode, crashing.exitCode]).toEqual([0, 1, 125]);
    expect(buggy.stderr.trimEnd().split("\n").at(-1)).toMatch(
      /^[0-9a-f]{7} failed: assertion at prove\/test-fixtures\/express\/sum\.e2e\.ts:11: .* \(exit 1\)$/,
    );
    expect(crashing.stderr).toContain("error: boot");
  });
});
