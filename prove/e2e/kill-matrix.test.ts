import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, open, readdir, readFile, rm, watch, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa, type ResultPromise } from "execa";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProofReport } from "../index.ts";
import { checkout, processesMentioning, prover, repositoryState } from "./support/prover.ts";

/**
 * The kill matrix: a proof stopped in each phase by each signal. A phase is reached by an event
 * (a marker file `reached-<phase>-<pid>` the held command writes, or the report opening a
 * screenshot that is a FIFO) and held there until the test writes `released-<pid>`
 * (test-fixtures/kill-matrix/hold.mjs), so the signal always lands in it.
 */
const fixtures = "prove/test-fixtures/kill-matrix";
const config = `${fixtures}/scenarios.config.ts`;
const scenario = `${fixtures}/held.e2e.ts`;

const phases = ["refs", "scenario", "worktree", "install", "build", "boot", "run", "report"] as const;
type Phase = (typeof phases)[number];
const stops = ["SIGINT", "SIGTERM", "SIGKILL", "group SIGKILL"] as const;
type Stop = (typeof stops)[number];

let work: string;
/** The provers' TMPDIR: their run folders and leftovers, apart from other test files' proofs. */
let temp: string;
let repo: string;
let realGit: string;
/** Every prover's stderr, in the order they ended: later proofs say which leftovers they removed. */
const stderrs: string[] = [];
/** Run folders SIGKILL left behind, by case. */
const leftovers = new Map<string, string[]>();
/** The proof of a scenario that never ends, started by the first hook to run beside the matrix. */
let neverEnding: ReturnType<typeof proveNeverEnding>;

const server = `import { createServer } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const [phase, markers, holdModule] = process.argv.slice(2);
if (phase === "boot") await (await import(holdModule)).hold("boot", markers);
createServer((request, response) => {
  if (request.url === "/hang") return writeFileSync(join(markers, "reached-run-" + process.pid), "");
  response.setHeader("content-type", "text/html");
  response.end("<!doctype html><title>Held</title><h1>Held</h1>");
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

/** The invoking checkout's branch, stashes, branches and worktrees (its HEAD and status move with other people's work). */
const checkoutState = async () => {
  const { branch, stashes, branches, worktrees } = await repositoryState(checkout);
  return { branch, stashes, branches, worktrees: worktrees.replace(/^HEAD .*$/gm, "") };
};
let checkoutBefore: Awaited<ReturnType<typeof checkoutState>>;

beforeAll(async () => {
  checkoutBefore = await checkoutState();
  work = await mkdtemp(join(tmpdir(), "prove-kill-matrix-"));
  // Long, as on macOS: too long for the socket Chromium makes under TMPDIR, so runs use a short folder in /tmp.
  temp = join(await mkdtemp(join(tmpdir(), "prove-kill-matrix-tmp-")), "a-temporary-folder-as-long-as-a-mac-one");
  await mkdir(temp);
  repo = join(work, "held-app");
  await mkdir(repo);
  const git = (...args: string[]) => execa("git", args, { cwd: repo });
  await git("init", "-q", "-b", "main");
  await writeFile(join(repo, "server.mjs"), server);
  await git("add", "-A");
  await git("-c", "user.name=Held Dev", "-c", "user.email=dev@example.com", "commit", "-qm", "A server the test can hold");
  await git("tag", "held");
  realGit = (await execa("sh", ["-c", "command -v git"])).stdout.trim();
  // Its test reads it once the matrix is done; a failure to start it fails that test, not the hook.
  neverEnding = proveNeverEnding();
  neverEnding.catch(() => undefined);
});

afterAll(async () => {
  // What a killed prover's git or listing still waits for (nothing a later proof can know of) goes with the test's folders.
  for (const pid of [...(await processesMentioning(work)), ...(await processesMentioning(temp))]) process.kill(pid, "SIGKILL");
  await rm(work, { recursive: true, force: true });
  await rm(dirname(temp), { recursive: true, force: true });
});

/**
 * Lets every command held in `markers` so far go on: each waits for `released-<its pid>` (none
 * waiting: nothing to do). One that gets there later is held, as a proof that goes on after its
 * stop would be.
 */
async function release(markers: string): Promise<void> {
  const held = (await readdir(markers)).flatMap((name) => /^reached-[a-z]+-(\d+)$/.exec(name)?.[1] ?? []);
  await Promise.all(held.map((pid) => writeFile(join(markers, `released-${pid}`), "")));
}

/** Resolves when a file whose name starts with `prefix` appears in `dir` (watched from before the prover starts). */
async function appears(dir: string, prefix: string, signal: AbortSignal): Promise<void> {
  for await (const event of watch(dir, { signal })) if (event.filename?.startsWith(prefix) === true) return;
}

/** Resolves when the prover's stderr so far contains `text`. */
function saysOnStderr(prover: ResultPromise, text: string): Promise<void> {
  let seen = "";
  return new Promise((resolve) => {
    prover.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    });
  });
}

const gitConfig = () => readFile(join(repo, ".git", "config"), "utf8");
/** The run folders of prover `pid`: in its TMPDIR, and its attempts' short folders in /tmp. */
const runFolders = async (pid: number | undefined) =>
  (
    await Promise.all(
      [temp, "/tmp"].map(async (root) =>
        (await readdir(root)).filter((name) => name.startsWith(`scenario-prover-${pid}.`)).map((name) => join(root, name)),
      ),
    )
  ).flat();

/**
 * Starts prove-scenario in `cwd` with the phase under test held: the test's git first on PATH,
 * the markers folder and the phase in its environment, in a process group of its own so a group
 * SIGKILL kills the prover and every child that did not leave it.
 */
function startHeld(args: ReadonlyArray<string>, cwd: string, phase: string, markers: string) {
  return execa("node", [prover, ...args], {
    cwd,
    env: {
      TMPDIR: temp,
      PATH: `${join(checkout, fixtures, "bin")}:${process.env.PATH ?? ""}`,
      KILL_MATRIX_PHASE: phase,
      KILL_MATRIX_DIR: markers,
      KILL_MATRIX_GIT: realGit,
    },
    detached: true,
    reject: false,
    stdin: "ignore",
  });
}

/** Sends `stop`: to the prover, or SIGKILL to its whole group. process.kill, not execa's kill(), which follows a SIGTERM with a SIGKILL after 5 s. */
const send = (stop: Stop, pid: number) => process.kill(stop === "group SIGKILL" ? -pid : pid, stop === "group SIGKILL" ? "SIGKILL" : stop);

/** Starts a proof held in `phase`, stops it with `stop` once it is there, and gives what it left. */
async function stopIn(phase: Phase, stop: Stop, printed: string[] = []) {
  const markers = await mkdtemp(join(work, `${phase}-${stop.replace(" ", "-")}-`));
  const out = join(markers, "report");
  const watching = new AbortController();
  const reached = appears(markers, phase === "report" ? "report.png" : `reached-${phase}-`, watching.signal);
  // Held in boot or run, one side is enough: with --sequential, head's Playwright and browser do not start beside base's.
  const sequential = phase === "boot" || phase === "run" ? ["--sequential"] : [];
  const prover = startHeld(
    ["--base", "held", "--head", "held", scenario, "--repo", repo, "--config", config, "--out", out, "--json", ...sequential],
    checkout,
    phase,
    markers,
  );
  prover.stderr?.on("data", (chunk: Buffer) => printed.push(chunk.toString()));
  const handled = saysOnStderr(prover, `${stop}: stopping`);
  await reached;
  watching.abort();
  // The report is held reading base's screenshot, a FIFO: this open ends when the report opens it.
  const screenshot = phase === "report" ? await open(join(markers, "report.png"), "w") : undefined;
  const pid = prover.pid ?? 0;
  const folders = await runFolders(pid);
  const databases = await databasesIn(folders);
  send(stop, pid);
  if (stop === "SIGINT" || stop === "SIGTERM") {
    await handled;
    await screenshot?.write(
      await sharp({ create: { width: 4, height: 4, channels: 3, background: "#fff" } })
        .png()
        .toBuffer(),
    );
    await screenshot?.close();
    await release(markers);
  }
  const result = await prover;
  if (stop === "SIGKILL" || stop === "group SIGKILL") await screenshot?.close().catch(() => undefined);
  stderrs.push(result.stderr);
  return { result, markers, out, folders, pid, databases };
}

/** The PostgreSQL processes (the app's service) working in `folders`. */
async function databasesIn(folders: ReadonlyArray<string>): Promise<ReadonlyArray<number>> {
  const pids = (await Promise.all(folders.map(processesMentioning))).flat();
  const names = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/comm`, "utf8").catch(() => "")));
  return pids.filter((_, index) => names[index]?.trim() === "postgres");
}

/**
 * A proof of a scenario that never ends, started as the matrix starts: its two sides wait out
 * Playwright's test timeout, which the matrix's cases need not wait for.
 */
async function proveNeverEnding() {
  const markers = await mkdtemp(join(work, "never-ends-"));
  const run = execa(
    "node",
    [
      prover,
      "--base",
      "held",
      "--head",
      "held",
      `${fixtures}/hangs.e2e.ts`,
      "--repo",
      repo,
      "--config",
      `${fixtures}/hangs.config.ts`,
      "--out",
      join(markers, "report"),
      "--json",
    ],
    {
      cwd: checkout,
      env: { TMPDIR: temp, KILL_MATRIX_DIR: markers },
      reject: false,
      stdin: "ignore",
    },
  );
  const result = await run;
  stderrs.push(result.stderr);
  return { markers, pid: run.pid, result };
}

describe("a proof stopped in each phase by each signal", () => {
  // SIGTERM takes SIGINT's handler (engine/terminal.ts watchSignals): it is checked where a child runs, while installing and while running.
  const sigtermPhases: ReadonlyArray<Phase> = ["install", "run"];
  const cases = phases.flatMap((phase) =>
    stops.filter((stop) => stop !== "SIGTERM" || sigtermPhases.includes(phase)).map((stop) => [phase, stop] as const),
  );

  it.concurrent.for(cases)("in %s, by %s", async ([phase, stop], { onTestFailed }) => {
    // A case that fails, or never ends, shows how far its prover got.
    const printed: string[] = [];
    onTestFailed(() => console.error(`in ${phase}, by ${stop}: the prover printed\n${printed.join("")}`));
    const repoBefore = await repositoryState(repo, temp);
    const configBefore = await gitConfig();
    const { result, markers, out, folders, pid, databases } = await stopIn(phase, stop, printed);
    // Held in boot or run, the app's database was up when the stop came.
    if (phase === "boot" || phase === "run") expect(databases.length, "postgres processes in the run's folders").toBeGreaterThan(0);

    // The repository under test is byte for byte what it was: HEAD, branches, stashes, index, .git/config
    // (its worktrees are the other cases' too, as they run at once).
    const { worktrees, ...state } = await repositoryState(repo, temp);
    const { worktrees: _others, ...stateBefore } = repoBefore;
    expect(state).toEqual(stateBefore);
    expect(await gitConfig()).toBe(configBefore);

    if (stop === "SIGINT" || stop === "SIGTERM") {
      expect(result.exitCode, result.stderr).toBe(2);
      const report = JSON.parse(result.stdout) as ProofReport;
      expect([report.verdict, report.exitCode, report.reasonCode]).toEqual(["could-not-run", 2, "interrupted"]);
      expect(JSON.parse(await readFile(join(out, "report.json"), "utf8"))).toEqual(report);
      expect(worktrees).not.toContain(`scenario-prover-${pid}.`);
      expect(await runFolders(pid)).toEqual([]);
      // Nothing of the run goes on: git, the listing, the install, the build, the app, Playwright, the browser, and the
      // database (its processes work in its data folder, in the run's folders).
      expect(await processesMentioning(markers)).toEqual([]);
      for (const folder of folders) expect(await processesMentioning(folder), folder).toEqual([]);
    } else {
      expect(result.signal).toBe("SIGKILL");
      leftovers.set(`${phase}, ${stop}`, folders);
    }
  });
});

describe("publishing stopped by each signal", () => {
  it.concurrent.each(stops)("by %s", async (stop) => {
    const markers = await mkdtemp(join(work, `publish-${stop.replace(" ", "-")}-`));
    const remote = join(markers, "remote.git");
    await execa("git", ["init", "-q", "--bare", remote]);
    const user = join(markers, "checkout");
    await execa("git", ["clone", "-q", repo, user]);
    await execa("git", ["remote", "set-url", "origin", remote], { cwd: user });
    const reportDir = join(markers, "report");
    await cp(join(checkout, "docs/demo-report"), reportDir, { recursive: true });
    const before = await repositoryState(user);
    const configBefore = await readFile(join(user, ".git", "config"), "utf8");

    const watching = new AbortController();
    const reached = appears(markers, "reached-publish-", watching.signal);
    const publisher = startHeld(["publish", reportDir, "--image-url", "https://img.example/proofs/"], user, "publish", markers);
    const handled = saysOnStderr(publisher, `${stop}: stopping`);
    await reached;
    watching.abort();
    const pid = publisher.pid ?? 0;
    const folders = await runFolders(pid);
    expect(folders).toHaveLength(1);
    send(stop, pid);
    if (stop === "SIGINT" || stop === "SIGTERM") {
      await handled;
      await release(markers);
    }
    const result = await publisher;
    stderrs.push(result.stderr);

    // The checkout is untouched, the branch was not pushed, and the report is as it was, without pr.md.
    expect(await repositoryState(user)).toEqual(before);
    expect(await readFile(join(user, ".git", "config"), "utf8")).toBe(configBefore);
    expect((await execa("git", ["branch", "--list"], { cwd: remote })).stdout).toBe("");
    expect(existsSync(join(reportDir, "pr.md"))).toBe(false);
    expect(await readFile(join(reportDir, "report.json"), "utf8")).toBe(
      await readFile(join(checkout, "docs/demo-report/report.json"), "utf8"),
    );
    if (stop === "SIGINT" || stop === "SIGTERM") {
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain(
        `publish: stopped by ${stop}; the branch has what git pushed before it, if anything, and nothing after.`,
      );
      expect(await runFolders(pid)).toEqual([]);
      expect(await processesMentioning(markers)).toEqual([]);
    } else {
      expect(result.signal).toBe("SIGKILL");
      leftovers.set(`publish, ${stop}`, folders);
    }
  });
});

describe("a scenario that never ends", () => {
  it("fails by Playwright's test timeout on both sides, with the timeout in the report, and leaves nothing behind", async () => {
    const { markers, pid, result } = await neverEnding;

    expect(result.exitCode, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as ProofReport;
    expect([report.verdict, report.reasonCode]).toEqual(["not-proved", "times-out-on-both"]);
    expect(report.reason).toContain(
      `base (held) reached the test timeout (8000 ms) in page.goto at ${fixtures}/hangs.e2e.ts:7, and head (held)`,
    );
    for (const side of [report.base, report.head]) {
      expect(side.attempts.map((attempt) => [attempt.outcome, attempt.error?.kind])).toEqual([["failed", "timeout"]]);
    }
    expect(await readFile(join(markers, "report", "report.md"), "utf8")).toContain("Test timeout of 8000ms exceeded");
    // The apps (their arguments name the markers folder) are gone with everything else of the run.
    expect(await runFolders(pid)).toEqual([]);
    expect(await processesMentioning(markers)).toEqual([]);
  });
});

describe("after SIGKILL", () => {
  it("a later proof removes every leftover and says so: folders, worktrees and processes", async () => {
    const markers = await mkdtemp(join(work, "next-"));
    const next = await execa(
      "node",
      [prover, "--base", "held", "--head", "held", scenario, "--repo", repo, "--config", config, "--out", join(markers, "report")],
      {
        cwd: checkout,
        env: { TMPDIR: temp, KILL_MATRIX_DIR: markers },
        reject: false,
        stdin: "ignore",
      },
    );
    stderrs.push(next.stderr);

    expect(next.exitCode, next.stderr).toBe(1);
    // From the scenario phase on (the worktrees are checked out while the scenario is listed), a killed proof had its run folder; each is named as removed by a later proof.
    const left = [...leftovers.entries()];
    expect(
      left
        .filter(([, folders]) => folders.length > 0)
        .map(([name]) => name)
        .sort(),
    ).toEqual(
      [...phases.slice(phases.indexOf("scenario")), "publish"].flatMap((phase) => [`${phase}, SIGKILL`, `${phase}, group SIGKILL`]).sort(),
    );
    for (const folder of left.flatMap(([, folders]) => folders)) {
      expect(
        stderrs.some((stderr) => stderr.includes(`removed ${folder}, left by a proof that was killed`)),
        `${folder} named as removed`,
      ).toBe(true);
      expect(existsSync(folder)).toBe(false);
      expect(await processesMentioning(folder)).toEqual([]);
    }
    // A worktree git was still adding when its prover was killed is left locked; the later proof unlocks and prunes it too.
    const { worktrees } = await repositoryState(repo, temp);
    expect(worktrees.split("\n\n"), worktrees).toHaveLength(1);
    expect(await checkoutState()).toEqual(checkoutBefore);
  });
});
