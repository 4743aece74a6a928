import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as Effect from "effect/Effect";
import { execa } from "execa";
import { withRepoLock } from "../../git/repo-lock.ts";
import type { ProofReport } from "../../index.ts";
import { builtHarness, builtProver } from "../../../test-support/built-package.ts";
import { processesMentioning } from "./processes.ts";

export { processesMentioning };

/** The invoking checkout: this repository, where the scenario, config, harness and Playwright live. */
export const checkout = resolve(import.meta.dirname, "../../..");
export const fixtures = "prove/test-fixtures/express";
export const config = `${fixtures}/playwright.config.ts`;
export const sumScenario = `${fixtures}/sum.e2e.ts`;

/** The prover the tests start, from the invoking checkout: built from its sources as an installed package has it (see builtProver). */
export const prover = await builtProver();

/**
 * A scenario folder outside any repository, as a user keeps one beside the app: an ES-module
 * package.json, a config of the harness with `app` (an object literal's text), and one scenario
 * file holding `body` after the harness's import. The harness is the built package's, as
 * `scenario-prover/harness` is a user's (the fixtures under prove/test-fixtures/ import this
 * checkout's source, as a clone's own scenarios do). Returns both absolute paths.
 */
export async function writeScenarioFolder(dir: string, input: { readonly app: string; readonly file: string; readonly body: string }) {
  const harness = JSON.stringify(await builtHarness());
  await mkdir(dir, { recursive: true });
  // ES modules, as the harness is: Playwright would load a .ts file outside any package as CommonJS.
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  const config = join(dir, "scenarios.config.ts");
  const scenario = join(dir, input.file);
  await writeFile(
    config,
    `import { defineScenarioConfig } from ${harness};\n\nexport default defineScenarioConfig({\n  testDir: ".",\n  app: ${input.app},\n});\n`,
  );
  await writeFile(scenario, `import { expect, test } from ${harness};\n\n${input.body}`);
  return { config, scenario };
}

/** Starts the real CLI, as a user would, from the invoking checkout: the built prover, or `entry` (the clone's bin). */
export function startProver(args: ReadonlyArray<string>, entry = prover, nodeOptions: ReadonlyArray<string> = []) {
  return execa("node", [...nodeOptions, entry, ...args], { cwd: checkout, reject: false, stdin: "ignore" });
}

/** The report folder of a report.json, whose `dir` is relative to the invoking checkout. */
export const reportDir = (report: ProofReport, root: string = checkout) => resolve(root, report.dir);

export interface ProverRun {
  readonly exitCode: number | undefined;
  readonly report: ProofReport;
  readonly stderr: string;
}

/** Runs a proof with --json and reads report.json from stdout and from the report folder; both must agree. */
export async function prove(args: ReadonlyArray<string>): Promise<ProverRun> {
  const run = await startProver([...args, "--json"]);
  const report = JSON.parse(run.stdout) as ProofReport;
  const onDisk = JSON.parse(await readFile(join(reportDir(report), "report.json"), "utf8")) as ProofReport;
  if (JSON.stringify(onDisk) !== JSON.stringify(report)) throw new Error("report.json on disk differs from the one printed with --json");
  return { exitCode: run.exitCode, report, stderr: run.stderr };
}

/**
 * Runs `read` on repository `dir` holding the provers' worktree lock (in `tmp`, their TMPDIR, by
 * default this process's): git stops when it reads a worktree another prover is still adding
 * ("failed to read .git/worktrees/base/commondir"), in `git worktree list` and `git branch`.
 */
export async function whileNoWorktreeIsAdded<A>(dir: string, read: () => Promise<A>, tmp?: string): Promise<A> {
  const toplevel = (await execa("git", ["rev-parse", "--show-toplevel"], { cwd: dir })).stdout;
  return Effect.runPromise(
    withRepoLock(toplevel, Effect.tryPromise({ try: read, catch: (error) => error }), tmp === undefined ? {} : { tmp }),
  );
}

/** Everything about a repository a proof must not change; `tmp` is the TMPDIR of provers that may run in it meanwhile. */
export async function repositoryState(dir: string, tmp?: string) {
  const git = async (...args: string[]) => (await execa("git", args, { cwd: dir })).stdout;
  return whileNoWorktreeIsAdded(
    dir,
    async () => ({
      head: await git("rev-parse", "HEAD"),
      // The branch checked out, or "HEAD" when detached.
      branch: await git("rev-parse", "--abbrev-ref", "HEAD"),
      status: await git("status", "--porcelain", "--untracked-files=all"),
      index: await git("diff", "--cached", "--stat"),
      stashes: await git("stash", "list"),
      branches: await git("branch", "--list", "--all"),
      worktrees: await git("worktree", "list", "--porcelain"),
    }),
    tmp,
  );
}

/**
 * Publishes a report folder as a user would, from the checkout `repo` (given a bare `origin` here
 * if it has none): returns pr.md and the files the branch holds afterwards.
 */
export async function publishFrom(repo: string, folder: string, branch = "scenario-proofs") {
  const remotes = (await execa("git", ["remote"], { cwd: repo })).stdout;
  if (!remotes.split("\n").includes("origin")) {
    const bare = `${folder}.origin.git`;
    await execa("git", ["init", "-q", "--bare", bare]);
    await execa("git", ["remote", "add", "origin", bare], { cwd: repo });
  }
  const run = await execa("node", [prover, "publish", folder, "--image-url", "https://img.example/proofs/"], {
    cwd: repo,
    reject: false,
    stdin: "ignore",
  });
  const origin = (await execa("git", ["remote", "get-url", "origin"], { cwd: repo })).stdout;
  const listed = await execa("git", ["ls-tree", "-r", "--name-only", branch], { cwd: origin, reject: false });
  return {
    exitCode: run.exitCode,
    stderr: run.stderr,
    pr: await readFile(join(folder, "pr.md"), "utf8").catch(() => ""),
    files: listed.stdout.split("\n").filter((line) => line !== ""),
  };
}

/**
 * Resolves once the prover's stderr so far matches every pattern: the text it printed (true), or
 * what it printed in all (false) when it ended first.
 */
function printedAll(
  prover: ReturnType<typeof startProver>,
  patterns: ReadonlyArray<RegExp>,
): Promise<{ readonly seen: boolean; readonly text: string }> {
  let text = "";
  return new Promise((resolve) => {
    prover.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (patterns.every((pattern) => pattern.test(text))) resolve({ seen: true, text });
    });
    void prover.then(() => resolve({ seen: false, text }));
  });
}

/** The run folders prover `pid` made in the system's temporary folder. */
const runFoldersOf = async (pid: number | undefined) =>
  (await readdir(tmpdir())).filter((name) => name.startsWith(`scenario-prover-${String(pid)}.`)).map((name) => join(tmpdir(), name));

/**
 * Kills the prover with SIGKILL once its stderr shows every pattern; gives whether it did (with
 * what it printed) and the run folders it had then.
 */
export async function killOncePrinted(prover: ReturnType<typeof startProver>, patterns: ReadonlyArray<RegExp>) {
  const printed = await printedAll(prover, patterns);
  const folders = await runFoldersOf(prover.pid);
  prover.kill("SIGKILL");
  await prover;
  return { ...printed, folders };
}

/** For each folder a killed run left: whether a later run's stderr names it as removed, whether it is still there, and the processes still working in it. */
export const afterLaterRun = (stderr: string, folders: ReadonlyArray<string>) =>
  Promise.all(
    folders.map(async (folder) => ({
      folder,
      named: stderr.includes(`removed ${folder}, left by a proof that was killed`),
      exists: existsSync(folder),
      processes: await processesMentioning(folder),
    })),
  );

/** What afterLaterRun gives when the later run removed every folder and every process. */
export const cleanedUp = (folders: ReadonlyArray<string>) =>
  folders.map((folder) => ({ folder, named: true, exists: false, processes: [] }));
