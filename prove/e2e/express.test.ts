import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, rmdir, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { execa } from "execa";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startTime } from "../../common/ownership.ts";
import type { BisectReport } from "../bisect/schema.ts";
import type { ProofReport } from "../index.ts";
import { formatDuration } from "../outcome/durations.ts";
import type { AppPlace } from "../test-fixtures/concurrency/where.ts";
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
  prover,
  reportDir,
  repositoryState,
  startProver,
  sumScenario,
} from "./support/prover.ts";

let work: string;
let repo: ExpressRepo;
/** Where the scenarios write down each app's port, home and worktree. */
let places: string;
/** Report folders under the invoking checkout's reports/, removed at the end. */
const written: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-express-"));
  repo = await makeExpressRepo(work);
  places = join(work, "places");
  await mkdir(places);
  // A developer's checkout in the middle of work, on a detached HEAD: an edit, an untracked file and a stash.
  await writeFile(join(repo.dir, "notes.txt"), "stashed idea\n");
  await repo.git("add", "notes.txt");
  await repo.git("stash", "push", "-q", "-m", "an idea");
  await writeFile(join(repo.dir, "README.md"), "# Sum\n\nWork in progress.\n");
  await writeFile(join(repo.dir, "scratch.txt"), "untracked\n");
  await repo.git("checkout", "-q", "--detach");
});

afterAll(async () => {
  // The bounded proofs a test did not wait for (when --testNamePattern ran only one of theirs) end before their repository goes.
  const proofs = await bounded;
  if (proofs !== undefined) await Promise.allSettled([proofs.noSuchField, proofs.warmed, proofs.cold]);
  for (const dir of written) {
    await rm(dir, { recursive: true, force: true });
    // The scenario's folders in reports/, now empty, up to reports/ itself.
    for (let parent = dirname(dir); parent !== join(checkout, "reports"); parent = dirname(parent)) await rmdir(parent).catch(() => {});
  }
  await rm(work, { recursive: true, force: true });
});

const out = (name: string) => join(work, "reports", name);
const against = (name: string) => ["--repo", repo.dir, "--config", config, "--out", out(name)];
/** The sum-app repository as the report names it: by its path from the invoking checkout. */
const repoShown = () => relative(checkout, repo.dir);

async function pixels(file: string) {
  return sharp(file).raw().toBuffer();
}

/** A scenario of the sum app under a config of its own: negative numbers, which a fix that does not work gets wrong too. */
const atOnceConfig = "prove/test-fixtures/concurrency/playwright.config.ts";
const negative = "prove/test-fixtures/concurrency/negative.e2e.ts";

/**
 * Starts the real CLI from the invoking checkout against the sum app, with the scenarios told where
 * to write down their apps: through node, or as the README runs it, through pnpm.
 */
function startAtOnce(via: "node" | "pnpm", args: ReadonlyArray<string>) {
  const command = via === "node" ? ["node", prover] : ["pnpm", "prove-scenario"];
  return execa(command[0] ?? via, [...command.slice(1), ...args, "--repo", repo.dir], {
    cwd: checkout,
    reject: false,
    stdin: "ignore",
    env: { SCENARIO_CONCURRENCY_PLACES: places },
  });
}

type AtOnce = ReturnType<typeof startAtOnce>;

/** Resolves once the prover's stderr has shown every pattern, or with the ones it never showed once it has ended. */
function printed(proof: AtOnce, patterns: ReadonlyArray<RegExp>): Promise<RegExp[]> {
  return new Promise((resolve) => {
    let text = "";
    const missing = () => patterns.filter((pattern) => !pattern.test(text));
    proof.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (missing().length === 0) resolve([]);
    });
    void proof.then(() => resolve(missing()));
  });
}

/** The worktree lock prove-scenario takes for a repository (prove/git/repo-lock.ts). */
const lockOf = (dir: string) => join(tmpdir(), `scenario-prover.lock-${createHash("sha1").update(dir).digest("hex").slice(0, 16)}`);

/** A proof's end as a user sees it: exit code, report.json from stdout (with --json) and from its folder, stderr. */
async function ended(proof: AtOnce, folder?: string) {
  const run = await proof;
  const printedReport = folder === undefined ? (JSON.parse(run.stdout) as ProofReport) : undefined;
  const dir = folder ?? reportDir(printedReport as ProofReport);
  const onDisk = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as ProofReport;
  return { pid: proof.pid, exitCode: run.exitCode, report: printedReport ?? onDisk, onDisk, dir, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Four proofs at once in the sum app's repository, made once for the tests that read them: the fix
 * proved twice, identically, into the same default folder; a fix that does not work, of another
 * scenario under another config; and a no-op change through pnpm, base named by its full SHA. Meanwhile locks are left by killed proofs, and
 * the user runs git gc and git worktree prune.
 */
async function proveAtOnce() {
  const repoBefore = await repositoryState(repo.dir);
  const lock = lockOf(await repo.git("rev-parse", "--show-toplevel"));
  // A proof killed while it held the repository's lock left it, with its pid and start time; the pid has since gone to a
  // later process (this test's): the first proof to add a worktree takes it over all the same.
  await mkdir(lock);
  await writeFile(join(lock, "pid"), `${String(process.pid)}.${String(Number(startTime(process.pid)) - 1)}`);
  // The first two are the same proof, into the same default folder under the checkout's reports/.
  const short = async (ref: string) => (await repo.git("rev-parse", ref)).slice(0, 7);
  const folder = join(checkout, "reports", fixtures, "sum", `${await short("bug")}-${await short("fix")}`);
  written.push(folder, `${folder}-2`);
  const fixSha = await repo.git("rev-parse", "fix");
  const provers = [
    startAtOnce("node", ["--base", "bug", "--head", "fix", sumScenario, "--config", config, "--json"]),
    startAtOnce("node", ["--base", "bug", "--head", "fix", sumScenario, "--config", config, "--json"]),
    startAtOnce("node", [
      "--base",
      "bug",
      "--head",
      "broken-fix",
      negative,
      "--config",
      atOnceConfig,
      "--json",
      "--out",
      out("broken-fix"),
    ]),
    startAtOnce("pnpm", ["--base", fixSha, "--head", "noop", sumScenario, "--config", config, "--out", out("noop")]),
  ] as const;

  // Once every proof has both its worktrees, the user cleans up the repository, and the lock is left again, by a proof
  // killed before it wrote its pid, long ago: the first proof to remove its worktrees takes it over.
  const notShown = await Promise.all(
    provers.map((proof) => printed(proof, [/^base {2}worktree {2}[0-9a-f]{7} {2}\d/m, /^head {2}worktree {2}[0-9a-f]{7} {2}\d/m])),
  );
  await repo.git("gc", "--prune=now", "--quiet");
  await repo.git("worktree", "prune");
  await mkdir(lock);
  await utimes(lock, new Date(0), new Date(0));

  const [first, second, broken, noop] = await Promise.all([
    ended(provers[0]),
    ended(provers[1]),
    ended(provers[2]),
    ended(provers[3], out("noop")),
  ]);
  const apps = await Promise.all(
    (await readdir(places)).map(async (file) => JSON.parse(await readFile(join(places, file), "utf8")) as AppPlace),
  );
  return { repoBefore, lock, folder, fixSha, notShown, first, second, broken, noop, apps };
}

let atOnce: ReturnType<typeof proveAtOnce> | undefined;
/** The four proofs at once, made by the first test that needs them. */
const provedAtOnce = () => (atOnce ??= proveAtOnce());

/**
 * Proofs of bounded waits, made at once by the first test that needs them: an action on a field the page does not have;
 * the compile-* commits (an API compiled on its first request) with the API warmed before the test, and head without.
 */
const proveBounded = () => ({
  noSuchField: prove(["--base", "bug", "--head", "fix", `${fixtures}/no-such-field.e2e.ts`, ...against("no-such-field")]),
  warmed: prove([
    "--base",
    "compile-bug",
    "--head",
    "compile-fix",
    sumScenario,
    "--repo",
    repo.dir,
    "--config",
    `${fixtures}/warm.config.ts`,
    "--out",
    out("warmed"),
  ]),
  cold: startProver(["run", "--at", "compile-fix", sumScenario, "--repo", repo.dir, "--config", config]),
});

let bounded: Promise<ReturnType<typeof proveBounded>> | undefined;
const boundedAtOnce = () => (bounded ??= Promise.resolve(proveBounded()));

describe("proving a fix in a plain Express repository that does not contain scenario-prover", () => {
  it("proves it: the total is wrong on base and right on head, with both sides' screenshots side by side", async () => {
    // The first of the two identical proofs made at once.
    const { repoBefore, first } = await provedAtOnce();
    const { exitCode, report, stderr, dir } = first;

    expect([exitCode, report.verdict, report.reasonCode], stderr).toEqual([0, "proved", "proved"]);
    expect(report.scenario).toMatchObject({ file: sumScenario, title: "adding 1 and 2 shows a total of 3" });
    expect(report.base.attempts).toMatchObject([{ outcome: "failed", error: { kind: "assertion", location: `${sumScenario}:13` } }]);
    expect(report.base.attempts[0]?.error?.message).toContain('Received: "Total: 12"');
    // A page that went wrong in no other way than its total has nothing in the browser to show.
    expect(report.base.attempts[0]?.events).toBeUndefined();
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
    expect(markdown).toContain(`**Base: assertion** at \`${sumScenario}:13\``);
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

    expect(await repositoryState(repo.dir)).toEqual(repoBefore);
  });

  it("runs four proofs at once, two of them identical, with locks left by killed proofs and the user running git gc and git worktree prune: each its own verdict, folder, ports, homes and worktrees, and nothing left", async () => {
    const { lock, folder, notShown, first, second, broken, noop, apps } = await provedAtOnce();
    expect(notShown).toEqual([[], [], [], []]);
    // On a wrong verdict, each proof's progress says which step went wrong, and how.
    const all = [first, second, broken, noop];
    expect(
      all.map(({ exitCode, report }) => [exitCode, report.verdict, report.reasonCode]),
      all.map(({ stderr }) => stderr).join("\n\n"),
    ).toEqual([
      [0, "proved", "proved"],
      [0, "proved", "proved"],
      [1, "not-proved", "fails-on-head"],
      [1, "not-proved", "passes-on-base"],
    ]);
    expect([first, second, broken].map(({ report, onDisk }) => JSON.stringify(onDisk) === JSON.stringify(report))).toEqual([
      true,
      true,
      true,
    ]);
    expect(broken.report.scenario.title).toBe("adding -1 and 1 shows a total of 0");

    // The identical proofs: one wrote the default folder, the other the one after it, and said so.
    expect([first.dir, second.dir].sort()).toEqual([folder, `${folder}-2`]);
    const moved = first.dir === folder ? second : first;
    expect(moved.stderr).toContain(`\n${folder} is being written by another proof running now (pid `);
    expect(moved.stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(`${folder}-2`, "report.md")}`);
    expect(new Set(all.map(({ dir }) => dir)).size).toBe(4);
    for (const { dir } of all) expect((await readdir(dir)).filter((name) => name.startsWith("."))).toEqual([]);

    // Each side's app: its own port, home and worktree, in its own proof's temporary folder.
    expect(apps).toHaveLength(8);
    expect(new Set(apps.map(({ port }) => port)).size).toBe(8);
    expect(new Set(apps.map(({ home }) => home)).size).toBe(8);
    expect(new Set(apps.map(({ root }) => root)).size).toBe(8);
    const runOf = (pid: number | undefined) => join(tmpdir(), `scenario-prover-${String(pid)}.`);
    // pnpm starts the prover as its child: that proof's pid is the one named by the run folder of the apps no other proof ran.
    const pnpmRun = apps.find(({ root }) => ![first, second, broken].some(({ pid }) => root.startsWith(runOf(pid))));
    const pids = [first.pid, second.pid, broken.pid, Number(/^scenario-prover-(\d+)\./.exec(basename(dirname(pnpmRun?.root ?? "")))?.[1])];
    for (const pid of pids) {
      const own = apps.filter(({ root }) => root.startsWith(runOf(pid)));
      expect(own.map(({ root }) => root.split("/").at(-1)).sort()).toEqual(["base", "head"]);
      expect(own.every(({ home }) => home.startsWith(dirname(own[0]?.root ?? "?")))).toBe(true);
    }

    // Nothing of theirs is left: worktrees, temporary folders, the repository's lock; and the repository is whole.
    expect((await repo.git("worktree", "list", "--porcelain")).split("\n\n")).toHaveLength(1);
    const left = (await readdir(tmpdir())).filter((name) => pids.some((pid) => name.startsWith(`scenario-prover-${String(pid)}.`)));
    expect(left).toEqual([]);
    expect(existsSync(lock)).toBe(false);
    const fsck = await execa("git", ["fsck", "--full", "--strict"], { cwd: repo.dir, reject: false });
    expect([fsck.exitCode, fsck.stderr.split("\n").filter((line) => /^(error|missing|broken|fatal)/.test(line))]).toEqual([0, []]);
  });

  it("says why a change is not proved: a no-op change passes on base (run as the README runs it, through pnpm, naming base by its full SHA), a fix that does not work fails on head, the error its page threw named before the failed assertion", async () => {
    const { fixSha, broken, noop } = await provedAtOnce();
    // A correct "not proved" through pnpm ends with the report's path, and pnpm adds no failure of its own.
    expect(noop.exitCode, noop.stderr).toBe(1);
    expect(noop.stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(out("noop"), "report.md")}`);
    expect(`${noop.stdout}${noop.stderr}`).not.toContain("ELIFECYCLE");
    expect([noop.report.verdict, noop.report.reasonCode]).toEqual(["not-proved", "passes-on-base"]);
    expect(noop.report.reason).toBe(
      `The scenario passes on base (${fixSha.slice(0, 7)}), so it does not reproduce the bug there; make it fail on base first.`,
    );
    const markdown = await readFile(join(out("noop"), "report.md"), "utf8");
    expect(markdown).toContain(`| | base \`${fixSha.slice(0, 7)}\` | head`);
    expect(markdown.replace(/```sh\n.*\n```/, "")).not.toContain(fixSha);
    expect([broken.exitCode, broken.report.verdict, broken.report.reasonCode], broken.stderr).toEqual([1, "not-proved", "fails-on-head"]);
    expect(broken.report.head.attempts).toMatchObject([{ outcome: "failed", error: { kind: "assertion", location: `${negative}:10` } }]);
    // Head's page shows no total: only its console says why, and the report names that error beside the assertion.
    const events = broken.report.head.attempts[0]?.events ?? [];
    expect(events.map(({ kind, text, beforeTestEnd }) => [kind, text, beforeTestEnd])).toEqual([
      ["page-error", "TypeError: Cannot set properties of null (setting 'textContent')", true],
    ]);
    const [thrown] = events;
    // The page throws once the sum's answer comes: in the assertion, between the click and it, or (on a loaded machine)
    // before Playwright has closed the click's own step.
    expect([`Expect "toHaveText" (${negative}:10)`, `after Click (${negative}:9)`, `Click (${negative}:9)`]).toContain(thrown?.step);
    expect(thrown?.location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/app\/:\d+:\d+$/);
    const brokenMarkdown = await readFile(join(out("broken-fix"), "report.md"), "utf8");
    const shown = /\*\*Head: assertion\*\* at `[^`]+`\n\n```text\n([^`]*)\n```/.exec(brokenMarkdown)?.[1] ?? brokenMarkdown;
    expect(shown).toContain('Received: ""');
    expect(shown.split("\n\n").at(-1)).toBe(
      `Before it failed, first an uncaught error in the page, ${thrown?.step?.startsWith("after ") === true ? "" : "during "}${thrown?.step}:\n` +
        `${thrown?.text}\n  at ${thrown?.location}`,
    );
  });

  it("bounds an action on a field the page does not have by the expect timeout, and names the action and its locator in the reason, without calling it a timeout of both sides", async () => {
    const { exitCode, report, stderr } = await (await boundedAtOnce()).noSuchField;
    expect([exitCode, report.verdict, report.reasonCode], stderr).toEqual([1, "not-proved", "fails-on-head"]);
    const scenario = `${fixtures}/no-such-field.e2e.ts`;
    for (const side of [report.base, report.head]) {
      expect(side.attempts).toMatchObject([{ outcome: "failed", error: { kind: "app-error", location: `${scenario}:6` } }]);
      expect(side.attempts[0]?.error?.message.split("\n").slice(0, 3)).toEqual([
        "TimeoutError: locator.fill: Timeout 3000ms exceeded.",
        "Call log:",
        "  - waiting for getByLabel('c')",
      ]);
      // The config's expect timeout bounds the fill, where the test's own (60 s) did before.
      expect(side.attempts[0]?.durationMs).toBeLessThan(60_000);
    }
    const [base, head] = [report.base.ref, report.head.ref];
    expect(report.reason).toBe(
      `The scenario fails on head (${head}) as well: head waited out the action timeout (3000 ms) in locator.fill at ${scenario}:6 for getByLabel('c'), which never appeared ` +
        `(base failed with app-error at ${scenario}:6: TimeoutError: locator.fill: Timeout 3000ms exceeded.). Check that step against head's failure screenshot: ` +
        "if what it waits for comes later on head (a route compiled on its first request), ask for that route before the test with app.ready.warm " +
        "or raise the action timeout (a proof's is the config's proof.actionTimeout, else the expect timeout, unless its use sets actionTimeout or navigationTimeout), " +
        "then prove again; otherwise the change does not fix it.",
    );
    expect(base).toBe("bug");
    expect(await readFile(join(reportDir(report), "report.md"), "utf8")).toContain(report.reason);
  });

  it("proves a fix whose API the server compiles on its first request once app.ready.warm asks for it before the test, in boot, where without it head fails in the test", async () => {
    const proofs = await boundedAtOnce();
    const [{ exitCode, report, stderr }, cold] = await Promise.all([proofs.warmed, proofs.cold]);
    expect([exitCode, report.verdict, report.reasonCode], stderr).toEqual([0, "proved", "proved"]);
    expect(report.base.attempts[0]?.error?.message).toContain('Received: "Total: 12"');
    // Boot held the 5 s compile, the test none of it.
    for (const side of ["base", "head"] as const) {
      const boot = /^(?:base|head) {2}boot +(\d+(?:\.\d)?)s/m.exec(
        stderr
          .split("\n")
          .filter((line) => line.startsWith(side))
          .join("\n"),
      );
      expect(Number(boot?.[1]), stderr).toBeGreaterThanOrEqual(5);
    }
    // Without app.ready.warm, head's first sum waits out the compile in the test, past the expect timeout.
    expect(cold.exitCode, cold.stderr).toBe(1);
    expect(cold.stderr).toContain('Expected substring: "Total:"');
  });

  it("with --keep and a TMPDIR as long as a Mac's, keeps the run folder and each run's short folder with the app's home, says where and how to remove them; a later run leaves them, but removes and names what a bisection killed with SIGKILL left, with no worktree or process of it left", async () => {
    const before = await repo.git("worktree", "list", "--porcelain");
    const temp = join(await mkdtemp(join(tmpdir(), "prove-keep-")), "a-temporary-folder-as-long-as-a-mac-one");
    // What the kept run leaves, gone however the test ends (its last lines remove them as the run said, and check that).
    const kept: string[] = [dirname(temp)];
    onTestFinished(async () => {
      await Promise.all(kept.map((dir) => rm(dir, { recursive: true, force: true })));
      await repo.git("worktree", "prune");
    });
    await mkdir(temp);
    const inTemp = (args: ReadonlyArray<string>) =>
      execa("node", [prover, ...args], { cwd: checkout, reject: false, stdin: "ignore", env: { TMPDIR: temp } });

    const keeping = await inTemp(["--base", "bug", "--head", "fix", sumScenario, ...against("kept"), "--keep"]);
    expect(keeping.exitCode, keeping.stderr).toBe(0);
    const run = /^keeping worktrees, homes and Playwright output in (\S+); remove them with: (.+)$/m.exec(keeping.stderr);
    const runDir = run?.[1] ?? "?";
    expect(runDir.startsWith(join(temp, "scenario-prover-"))).toBe(true);
    const shorts = [
      ...keeping.stderr.matchAll(
        /^keeping this run's homes and browser files in (\S+) \(the run folder's path is too long for Chromium's socket\); remove them with: rm -rf \1$/gm,
      ),
    ].map((match) => match[1] ?? "?");
    kept.push(...shorts.filter((short) => short.startsWith("/tmp/scenario-prover-")));
    expect(shorts).toHaveLength(2);
    for (const short of shorts) {
      expect(short.startsWith("/tmp/scenario-prover-")).toBe(true);
      expect((await readdir(short)).filter((name) => name.startsWith("scenario-app-"))).toHaveLength(1);
    }
    expect([existsSync(join(runDir, "base")), existsSync(join(runDir, "head"))]).toEqual([true, true]);

    // A bisection killed while its ends run leaves its run folder in /tmp, which a run in TMPDIR also looks through.
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

    // A later run in the same temporary folders removes the killed proof's leftovers and takes none of the kept ones for them.
    // It runs one side, as for git bisect run: 0 where the scenario passes (1 and 125 are the last test's).
    const later = await inTemp(["run", "--at", "fix", sumScenario, "--repo", repo.dir, "--config", config]);
    expect(later.exitCode, later.stderr).toBe(0);
    expect(later.stderr.trimEnd().split("\n").at(-1)).toMatch(/^[0-9a-f]{7} passed \(exit 0\)$/);
    expect(await afterLaterRun(later.stderr, killed.folders)).toEqual(cleanedUp(killed.folders));
    for (const dir of [runDir, ...shorts]) {
      expect(later.stderr).not.toContain(`removed ${dir}`);
      expect(existsSync(dir)).toBe(true);
    }

    // Removed as it said, nothing of it is left: no folder, no worktree.
    await execa("sh", ["-c", `${run?.[2] ?? "false"} && rm -rf ${shorts.join(" ")}`]);
    for (const dir of [runDir, ...shorts]) expect(existsSync(dir)).toBe(false);
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

  it("could not run when base cannot install: exit 2, a message naming what to change, and head stopped at once instead of waiting out its scenario, which hangs", async () => {
    const { exitCode, report, stderr } = await prove([
      "--base",
      "install-broken",
      "--head",
      "hang",
      `${fixtures}/hang.e2e.ts`,
      ...against("stopped"),
    ]);
    expect([exitCode, report.verdict, report.exitCode, report.reasonCode]).toEqual([2, "could-not-run", 2, "base-error"]);
    expect(report.base.attempts).toMatchObject([{ outcome: "error", error: { kind: "install" } }]);
    // The message names the command that failed, the setting to change and what it could not find.
    for (const text of ["`npm install`", "set app.install", "sum-helpers-1.0.0.tgz"])
      expect(report.base.attempts[0]?.error?.message).toContain(text);
    expect(stderr.split("\n")).toContainEqual(expect.stringMatching(/^could-not-run \(exit 2, base-error\): /));
    expect(stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(reportDir(report), "report.md")}`);
    expect(report.head.attempts).toEqual([]);
    expect(stderr).toContain("\nhead  stopped    base could not run the scenario, so nothing left to run on head can change the verdict\n");
    expect(await readFile(join(reportDir(report), "report.md"), "utf8")).toMatch(/^- head: `[0-9a-f]{7}` \(hang\) .* — not run$/m);
    expect(await processesMentioning(repo.dir)).toEqual([]);
  });

  it("runs one side for git bisect run: 1 where the scenario fails, 125 where it cannot run (0 where it passes: the --keep test's later run)", async () => {
    const runAt = (ref: string) => startProver(["run", "--at", ref, sumScenario, "--repo", repo.dir, "--config", config]);
    const [buggy, crashing] = await Promise.all([runAt("bug"), runAt("boot-crash")]);
    expect([buggy.exitCode, crashing.exitCode], `${buggy.stderr}\n\n${crashing.stderr}`).toEqual([1, 125]);
    expect(buggy.stderr.trimEnd().split("\n").at(-1)).toMatch(
      /^[0-9a-f]{7} failed: assertion at prove\/test-fixtures\/express\/sum\.e2e\.ts:13: .* \(exit 1\)$/,
    );
    // An app that crashes before it is ready: the boot error, with its exit code and what to check.
    expect(crashing.stderr).toContain(
      'error: boot: HarnessError: [scenario-harness:boot] The app exited with code 1 before it was ready, having thrown "Error: SUM_CONFIG is missing: set it before starting the sum app".',
    );
    expect(crashing.stderr).toContain("Check app.start (`node server.js`)");
    // The whole error comes before that line, which has room for its first: the app's own output, with nothing to read it in afterwards.
    expect(crashing.stderr).toContain("\n  Error: SUM_CONFIG is missing: set it before starting the sum app\n");
    expect(crashing.stderr.trimEnd().split("\n").at(-1)).toMatch(/^[0-9a-f]{7} error: boot: .* \(exit 125\)$/);
    expect(buggy.stderr).toMatch(
      /^assertion at prove\/test-fixtures\/express\/sum\.e2e\.ts:13:\n(?:(?: {2}.*)?\n)*? {2}Expected: +"Total: 3"\n/m,
    );
  });
});
