import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main, type AttemptErrorKind, type ProofReport, type ReasonCode } from "../index.ts";
import { makeExpressRepo, type ExpressRepo } from "./support/express-repo.ts";
import {
  checkout,
  config,
  fixtures,
  processesMentioning,
  repositoryState,
  startProver,
  sumScenario,
  whileNoWorktreeIsAdded,
} from "./support/prover.ts";

const badInput = "prove/test-fixtures/bad-input";

/** What a row's command line can point at, known once the repository is made. */
interface Places {
  readonly repo: string;
  /** This row's own report folder, outside both repositories. */
  readonly out: string;
  /** A plain folder, in no git repository. */
  readonly notARepo: string;
  /** A regular file: no folder can be made below it, not even by root, which chmod does not stop. */
  readonly aFile: string;
}

interface ProofArgs {
  readonly base: string | null;
  readonly head: string | null;
  readonly scenario: string | null;
  readonly repo: string | null;
  readonly config: string | null;
  readonly out: string | null;
}

/** A proof of the sum scenario against the Express repository, with the row's changes; null leaves an option out. */
function proof(at: Places, change: Partial<ProofArgs> = {}): string[] {
  const args: ProofArgs = { base: "bug", head: "fix", scenario: sumScenario, repo: at.repo, config, out: at.out, ...change };
  const flag = (name: string, value: string | null) => (value === null ? [] : [name, value]);
  return [
    ...flag("--base", args.base),
    ...flag("--head", args.head),
    ...(args.scenario === null ? [] : [args.scenario]),
    ...flag("--repo", args.repo),
    ...flag("--config", args.config),
    ...flag("--out", args.out),
  ];
}

interface Row {
  readonly input: string;
  readonly args: (at: Places) => ReadonlyArray<string>;
  /** Pieces of stderr: the input named, and what to change. */
  readonly says: (at: Places) => ReadonlyArray<string>;
  /**
   * Refused by the command line's parser, before anything starts: run in this process through
   * main(argv), the function the binary calls, instead of spawning it (the first row spawns it).
   */
  readonly parser?: true;
  /**
   * For an input the prover gets as far as writing a report about: its reason code, when base could
   * not run the error's kind, and what the report's message says beyond stderr's line.
   */
  readonly report?: { readonly reasonCode: ReasonCode; readonly kind?: AttemptErrorKind; readonly alsoSays?: ReadonlyArray<string> };
  /** Options for node before the prover's bin: the machine's fault, for a row about the machine rather than the command line. */
  readonly node?: ReadonlyArray<string>;
  /** Progress lines (a side and its step) the prover must not reach. */
  readonly stopsBefore?: RegExp;
}

const help = "Run `prove-scenario --help` for the options.";

// Cheap rows first: the command line, then the repository and refs, then the config and the
// scenario (most of them one `playwright test --list`); the last two get as far as base's run.
const rows: ReadonlyArray<Row> = [
  { input: "an unknown option", args: (at) => [...proof(at), "--frobnicate"], says: () => ["Unknown option '--frobnicate'", help] },
  {
    input: "an option missing its value",
    parser: true,
    args: (at) => [...proof(at, { config: null }), "--config"],
    says: () => ["Option '--config <value>' argument missing", help],
  },
  {
    input: "an unknown command",
    parser: true,
    args: (at) => ["frobnicate", ...proof(at)],
    says: () => ['Unknown command "frobnicate"', "The commands are init, run, publish, merge, demo", help],
  },
  {
    input: "--base empty",
    parser: true,
    args: (at) => proof(at, { base: "" }),
    says: () => ["--base is required, e.g. --base main.", help],
  },
  {
    input: "no --head",
    parser: true,
    args: (at) => proof(at, { head: null }),
    says: () => ["--head is required, e.g. --head HEAD.", help],
  },
  {
    input: "--base and --head given twice",
    parser: true,
    args: (at) => [...proof(at), "--base", "noop", "--head", "broken-fix"],
    says: () => ['Give each option once; got --base twice ("bug", "noop") and --head twice ("fix", "broken-fix").', help],
  },
  {
    input: "--repeat 0",
    parser: true,
    args: (at) => [...proof(at), "--repeat", "0"],
    says: () => ['--repeat takes a whole number of runs, 1 or more; got "0".', help],
  },
  {
    input: "--repeat abc",
    parser: true,
    args: (at) => [...proof(at), "--repeat", "abc"],
    says: () => ['--repeat takes a whole number of runs, 1 or more; got "abc".', help],
  },
  {
    input: "--repo empty",
    parser: true,
    args: (at) => proof(at, { repo: "" }),
    says: () => ["--repo needs a value, e.g. --repo ../my-app.", help],
  },
  {
    input: "--config empty",
    parser: true,
    args: (at) => proof(at, { config: "" }),
    says: () => ["--config needs a value, e.g. --config scenarios.config.ts.", help],
  },
  {
    input: "--out empty",
    parser: true,
    args: (at) => proof(at, { out: "" }),
    says: () => ["--out needs a value, e.g. --out ../reports.", help],
  },
  {
    input: "--repo that is not a git repository",
    args: (at) => proof(at, { repo: at.notARepo }),
    says: (at) => [
      `--repo "${at.notARepo}": ${at.notARepo} is not in a git repository`,
      "Pass the folder of the git repository whose commits you compare",
      "leave --repo out",
    ],
    report: { reasonCode: "bad-repo" },
  },
  {
    input: "--repo that does not exist",
    args: (at) => proof(at, { repo: join(at.notARepo, "sum-app") }),
    says: (at) => [`--repo "${join(at.notARepo, "sum-app")}": there is no folder at ${join(at.notARepo, "sum-app")}`, "leave --repo out"],
    report: { reasonCode: "bad-repo" },
  },
  {
    input: "a ref that does not exist",
    args: (at) => proof(at, { base: "no-such-ref" }),
    says: (at) => [`--base "no-such-ref" does not name a commit in ${at.repo}`, `\`git -C ${at.repo} branch -a\``],
    report: { reasonCode: "bad-ref" },
  },
  // The tests run as root, whom a folder without write permission does not stop: a regular file on the way stops everyone.
  {
    input: "--out below a regular file",
    args: (at) => proof(at, { out: join(at.aFile, "report") }),
    says: (at) => [
      `Could not write the report to ${join(at.aFile, "report")}: ${at.aFile} is a file, not a folder. Pass --out <dir> with a writable folder.`,
    ],
  },
  {
    input: "--out inside the repository under test",
    args: (at) => proof(at, { out: join(at.repo, "proof") }),
    says: (at) => [
      `--out ${join(at.repo, "proof")} is inside the repository under test, ${at.repo}`,
      `Pass --out a folder outside the repository, e.g. --out ${at.repo}-reports`,
    ],
  },
  {
    input: "a config file that does not exist",
    args: (at) => proof(at, { config: `${badInput}/missing.config.ts` }),
    says: () => [`Scenario config ${badInput}/missing.config.ts: there is no file at`, "Pass --config <file> naming your scenario config."],
    report: { reasonCode: "config-error" },
  },
  {
    input: "a scenario that does not exist",
    args: (at) => proof(at, { scenario: `${fixtures}/missing.e2e.ts` }),
    says: () => [`Scenario ${fixtures}/missing.e2e.ts: there is no file at`, "Check the path; it is relative to"],
    report: { reasonCode: "scenario-not-found" },
  },
  {
    input: "a config that throws on import",
    args: (at) => proof(at, { config: `${badInput}/throws.config.ts` }),
    says: () => [
      `Scenario config ${badInput}/throws.config.ts: Playwright could not load it; fix this first:`,
      "Error: SUM_APP_SECRET is not set",
      `${badInput}/throws.config.ts:4`,
    ],
    report: { reasonCode: "config-error" },
  },
  {
    input: "a config exporting no app",
    args: (at) => proof(at, { config: `${badInput}/no-app.config.ts` }),
    says: () => [
      `Scenario config ${badInput}/no-app.config.ts: it names no app. Build it with defineScenarioConfig({ app: { root, start, ready } })`,
    ],
    report: { reasonCode: "config-error" },
  },
  {
    input: "a {port} placeholder as an env variable's name",
    args: (at) => proof(at, { config: `${badInput}/port-in-env-name.config.ts` }),
    says: () => [
      `Scenario config ${badInput}/port-in-env-name.config.ts: app.env has a variable named "{port}"; rename it`,
      "Placeholders such as {port} are filled into values, not names",
    ],
    report: { reasonCode: "config-error" },
  },
  {
    input: "a scenario outside the config's testDir",
    args: (at) => proof(at, { scenario: `${badInput}/outside.e2e.ts` }),
    says: () => [
      `Scenario ${badInput}/outside.e2e.ts: the config`,
      "does not run it (testDir",
      "Move it under testDir or pass --config for the config that covers it.",
    ],
    report: { reasonCode: "scenario-not-found" },
  },
  {
    input: "two tests in one file without --grep",
    args: (at) => proof(at, { scenario: `${fixtures}/two-tests.e2e.ts` }),
    says: () => [
      `Scenario ${fixtures}/two-tests.e2e.ts holds 2 tests; a proof runs exactly one. Pass --grep <text> matching one of these titles:\n  - adding 1 and 2 shows 3\n  - adding -1 and 1 shows 0`,
    ],
    report: { reasonCode: "ambiguous-scenario" },
  },
  {
    input: "--grep matching two tests",
    args: (at) => [...proof(at, { scenario: `${fixtures}/two-tests.e2e.ts` }), "--grep", "adding"],
    says: () => [`Scenario ${fixtures}/two-tests.e2e.ts has, for --grep "adding", 2 tests; a proof runs exactly one. Pass --grep <text>`],
    report: { reasonCode: "ambiguous-scenario" },
  },
  {
    input: "--grep matching no test",
    args: (at) => [...proof(at, { scenario: `${fixtures}/two-tests.e2e.ts` }), "--grep", "multiply"],
    says: () => [
      `Scenario ${fixtures}/two-tests.e2e.ts: no test title contains --grep "multiply". Its tests are:\n  - adding 1 and 2 shows 3`,
    ],
    report: { reasonCode: "scenario-not-found" },
  },
  {
    input: "a machine where sharp does not load",
    node: ["--import", `./${badInput}/no-sharp.mjs`],
    args: (at) => proof(at),
    says: () => [
      "The report's images cannot be made on this machine: sharp, the image library scenario-prover reads and draws them with, does not load.",
      "Install scenario-prover's dependencies again with their optional ones",
      'sharp says:\nCould not load the "sharp" module using the linux-x64 runtime',
    ],
    // Found while the scenario is listed: neither side installs or runs.
    stopsBefore: /^(base|head) +(install|run)\b/m,
  },
  // Nothing to install (install: false) and --sequential, so base fails at once and head never starts.
  {
    input: "app.start naming a command that is not installed",
    args: (at) => [...proof(at, { config: `${badInput}/start-not-found.config.ts` }), "--sequential"],
    says: () => [
      "could-not-run (exit 2, base-error)",
      '[scenario-harness:boot] The app exited with code 127 before it was ready, its last line being "',
      'definitely-not-a-command-xyz: not found". Check app.start (`definitely-not-a-command-xyz --port ',
    ],
    report: { reasonCode: "base-error", kind: "boot" },
  },
  {
    input: "a transcript that cannot be loaded",
    args: (at) => [
      ...proof(at, { scenario: `${fixtures}/bad-transcript.e2e.ts`, config: `${badInput}/no-install.config.ts` }),
      "--sequential",
    ],
    says: () => [
      "could-not-run (exit 2, base-error)",
      "[scenario-harness:transcript]",
      "bad-transcript.ndjson:3: this line is not valid JSON",
      "Write one JSON object per line",
    ],
    report: { reasonCode: "base-error", kind: "transcript", alsoSays: ["Fix the line it names"] },
  },
];

let work: string;
let repo: ExpressRepo;
let repoBefore: Awaited<ReturnType<typeof repositoryState>>;
let checkoutBefore: Awaited<ReturnType<typeof checkoutState>>;

/**
 * The invoking checkout as a proof could change it: its branch, stashes, branches, worktrees (its
 * HEAD moves with other people's commits) and the folders under its reports/ named after a commit
 * of this file's repository (a default report folder is `<base7>-<head7>`; other test files write
 * their own there meanwhile).
 */
async function checkoutState() {
  const { branch, stashes, branches, worktrees } = await repositoryState(checkout);
  const shas = (await repo.git("rev-list", "--all")).split("\n").map((sha) => sha.slice(0, 7));
  const reports = (await readdir(join(checkout, "reports"), { recursive: true }).catch(() => []))
    .filter((path) => shas.some((sha) => path.includes(sha)))
    .sort();
  return { branch, stashes, branches, worktrees: worktrees.replace(/^HEAD .*$/gm, ""), reports };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-bad-input-"));
  repo = await makeExpressRepo(work);
  // A developer's checkout in the middle of work: an edit and an untracked file.
  await writeFile(join(repo.dir, "README.md"), "# Sum\n\nWork in progress.\n");
  await writeFile(join(repo.dir, "scratch.txt"), "untracked\n");
  await mkdir(join(work, "not-a-repo"));
  await writeFile(join(work, "a-file"), "a file, not a folder\n");
  repoBefore = await repositoryState(repo.dir);
  checkoutBefore = await checkoutState();
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/**
 * The prover on a row's command line, started as a process: the first row's as a clone runs it
 * (bin/prove-scenario.mjs, its source through tsx), the others' as the package built from it runs,
 * as in the other e2e files; its run's temporary folder and worktrees are named after its pid.
 */
async function spawned(args: ReadonlyArray<string>, row: Row) {
  const prover = row === rows[0] ? startProver(args, "bin/prove-scenario.mjs") : startProver(args, undefined, row.node);
  const run = await prover;
  return { exitCode: run.exitCode, stderr: run.stderr, ownRun: `scenario-prover-${String(prover.pid)}.` };
}

/**
 * main(argv) in this process, as the binary calls it, with what it writes to stderr: a command line
 * the parser refuses answers before anything asynchronous starts, so no other row's output mixes in.
 */
async function parse(args: ReadonlyArray<string>) {
  const lines: string[] = [];
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0);
  let exited: Promise<number>;
  try {
    exited = main(args, checkout);
  } finally {
    stderr.mockRestore();
  }
  return { exitCode: await exited, stderr: lines.join(""), ownRun: `scenario-prover-${String(process.pid)}.` };
}

describe("bad inputs: each exits 2 with a message naming what to change, and leaves nothing behind", () => {
  it.concurrent.for(rows)("$input", async (row, { expect }) => {
    const at: Places = {
      repo: repo.dir,
      out: join(work, "reports", row.input.replace(/[^A-Za-z0-9]+/g, "-")),
      notARepo: join(work, "not-a-repo"),
      aFile: join(work, "a-file"),
    };
    const { exitCode, stderr, ownRun } = await (row.parser === true ? parse(row.args(at)) : spawned(row.args(at), row));

    expect(exitCode, stderr).toBe(2);
    for (const text of row.says(at)) expect(stderr).toContain(text);
    if (row.stopsBefore !== undefined) expect(stderr).not.toMatch(row.stopsBefore);
    // A message, not a crash: no stack of Node's or Playwright's, and no "please report this".
    expect(stderr).not.toMatch(/^\s+at .*(node:internal|node_modules)/m);
    expect(stderr).not.toContain("failed unexpectedly");

    // A could-not-run report where the prover got that far, with the same message; none for a refused command line.
    const written = join(at.out, "report.json");
    if (row.report === undefined) expect(existsSync(written)).toBe(false);
    else {
      const { reasonCode, kind, alsoSays = [] } = row.report;
      const report = JSON.parse(await readFile(written, "utf8")) as ProofReport;
      expect([report.verdict, report.exitCode, report.reasonCode]).toEqual(["could-not-run", 2, reasonCode]);
      if (kind !== undefined) expect(report.base.attempts).toMatchObject([{ outcome: "error", error: { kind } }]);
      const message = kind === undefined ? report.reason : (report.base.attempts[0]?.error?.message ?? "");
      for (const text of [...row.says(at).filter((piece) => !piece.startsWith("could-not-run")), ...alsoSays])
        expect(message).toContain(text);
      expect(stderr.split("\n")).toContainEqual(expect.stringMatching(new RegExp(`^could-not-run \\(exit 2, ${reasonCode}\\): `)));
      expect(stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(at.out, "report.md")}`);
    }

    expect((await readdir(tmpdir())).filter((name) => name.startsWith(ownRun))).toEqual([]);
    expect(await processesMentioning(ownRun)).toEqual([]);
    const worktrees = await whileNoWorktreeIsAdded(repo.dir, () => repo.git("worktree", "list", "--porcelain"));
    expect(worktrees).not.toContain(ownRun);
    expect(await repo.git("status", "--porcelain", "--untracked-files=all")).toBe(repoBefore.status);
  });

  it("leaves the repository under test and the invoking checkout as they were, with no process of the app running", async () => {
    expect(await repositoryState(repo.dir)).toEqual(repoBefore);
    expect(await checkoutState()).toEqual(checkoutBefore);
    expect(await processesMentioning(repo.dir)).toEqual([]);
  });
});
