import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleGit, type SimpleGit } from "simple-git";
import { appPath, findBug, type ZooBug } from "./bugs.ts";
import { SandboxFailed } from "./errors.ts";
import { writeSandboxFiles } from "./sandbox-files.ts";

/** A sandbox repository whose branch `bug/<id>` holds the buggy app and `fix/<id>` the app as shipped. */
export interface DemoSandbox {
  /** The sandbox repository, in a temporary folder. */
  readonly dir: string;
  /** `bug/<id>`: the base of the proof. */
  readonly base: string;
  /** `fix/<id>`: the head of the proof. */
  readonly head: string;
  readonly bug: ZooBug;
  /** Absolute path of this repository's scenario for the bug (the scenario is held constant, so it is never copied). */
  readonly scenario: string;
  /** Absolute path of this repository's scenario config. */
  readonly config: string;
  /** Removes the sandbox folder. */
  dispose(): Promise<void>;
}

export interface DemoSandboxOptions {
  readonly bugId: string;
  /** This repository's root, holding examples/agent-chat/ and playwright.config.ts. */
  readonly repoRoot: string;
  /** Where the sandbox folder is made; the system's temporary folder by default. */
  readonly tempDir?: string;
}

/**
 * Builds the sandbox for one zoo bug: the app with the fix reversed on `bug/<id>`, then as shipped
 * on `fix/<id>`. The folder is removed if anything fails.
 */
export async function createDemoSandbox(options: DemoSandboxOptions): Promise<DemoSandbox> {
  const bug = await findBug(options.repoRoot, options.bugId);
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), `scenario-prover-demo-${bug.id}-`));
  const dispose = () => rm(dir, { recursive: true, force: true, maxRetries: 3 });
  try {
    await writeSandboxFiles(options.repoRoot, dir);
    await commitBothSides(dir, bug);
  } catch (error) {
    await dispose();
    throw error;
  }
  return {
    dir,
    base: baseBranch(bug),
    head: headBranch(bug),
    bug,
    scenario: join(options.repoRoot, bug.scenario),
    config: join(options.repoRoot, "playwright.config.ts"),
    dispose,
  };
}

/** A sandbox holding several zoo bugs at once: `zoo-bugs` with every fix reversed, `zoo-fixes` with every fix applied. */
export interface ZooSandbox {
  readonly dir: string;
  readonly base: "zoo-bugs";
  readonly head: "zoo-fixes";
  readonly bugs: ReadonlyArray<ZooBug>;
  dispose(): Promise<void>;
}

/** Builds a sandbox with several zoo bugs in one commit and their fixes in the next; removed if anything fails. */
export async function createZooSandbox(options: {
  readonly bugIds: ReadonlyArray<string>;
  readonly repoRoot: string;
  readonly tempDir?: string;
}): Promise<ZooSandbox> {
  const bugs = await Promise.all(options.bugIds.map((id) => findBug(options.repoRoot, id)));
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), "scenario-prover-zoo-"));
  const dispose = () => rm(dir, { recursive: true, force: true, maxRetries: 3 });
  try {
    await writeSandboxFiles(options.repoRoot, dir);
    const titles = bugs.map((bug) => `- ${bug.id}: ${bug.title}`).join("\n");
    await commitSides(dir, bugs, {
      base: { branch: "zoo-bugs", subject: `agent-chat: ${bugs.length} bugs of the zoo`, body: titles },
      head: { branch: "zoo-fixes", subject: `Fix ${bugs.length} bugs of the zoo`, body: titles },
    });
  } catch (error) {
    await dispose();
    throw error;
  }
  return { dir, base: "zoo-bugs", head: "zoo-fixes", bugs, dispose };
}

/** The prover's arguments that prove the sandbox's fix: `--repo … --base base --head head --config … [the bug's options] <scenario>`. */
export function proofArguments(sandbox: DemoSandbox): ReadonlyArray<string> {
  return [
    "--repo",
    sandbox.dir,
    "--base",
    sandbox.base,
    "--head",
    sandbox.head,
    "--config",
    sandbox.config,
    ...sandbox.bug.options,
    sandbox.scenario,
  ];
}

const baseBranch = (bug: ZooBug) => `bug/${bug.id}`;
const headBranch = (bug: ZooBug) => `fix/${bug.id}`;

function commitBothSides(dir: string, bug: ZooBug): Promise<void> {
  return commitSides(dir, [bug], {
    base: { branch: baseBranch(bug), subject: `agent-chat: ${bug.title}`, body: baseBody(bug) },
    head: { branch: headBranch(bug), subject: `Fix: ${bug.title}`, body: headBody(bug) },
  });
}

interface SideCommit {
  readonly branch: string;
  readonly subject: string;
  readonly body: string;
}

/** Commits the app with the bugs' fixes reversed on one branch, then with them applied on the next. */
async function commitSides(
  dir: string,
  bugs: ReadonlyArray<ZooBug>,
  sides: { readonly base: SideCommit; readonly head: SideCommit },
): Promise<void> {
  const git = sandboxGit(dir);
  const run = async (step: string, args: ReadonlyArray<string>) => {
    try {
      return await git.raw([...args]);
    } catch (error) {
      throw new SandboxFailed({
        step,
        command: `git ${args.join(" ")}`,
        cwd: dir,
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  };
  await run("git init", ["init", "--quiet"]);
  for (const [key, value] of localConfig) await run("git config", ["config", key, value]);
  await run("base branch", ["checkout", "--quiet", "-b", sides.base.branch]);
  for (const bug of bugs) await run("reverse the fix", ["apply", "--reverse", bug.patch]);
  await run("base commit", ["add", "--all"]);
  await run("base commit", [...noHooks, "commit", "--quiet", "--no-verify", "-m", sides.base.subject, "-m", sides.base.body]);
  await run("head branch", ["checkout", "--quiet", "-b", sides.head.branch]);
  for (const bug of [...bugs].reverse()) await run("apply the fix", ["apply", bug.patch]);
  await run("head commit", ["add", "--all"]);
  await run("head commit", [...noHooks, "commit", "--quiet", "--no-verify", "-m", sides.head.subject, "-m", sides.head.body]);
}

// The sandbox's own identity and settings, so a developer's signing or line-ending config cannot change or stop its commits.
const localConfig: ReadonlyArray<readonly [string, string]> = [
  ["user.name", "scenario-prover demo"],
  ["user.email", "demo@scenario-prover.invalid"],
  ["commit.gpgsign", "false"],
  ["core.autocrlf", "false"],
];

const noHooks = ["-c", "core.hooksPath=/dev/null"];

function baseBody(bug: ZooBug): string {
  return `${bug.summary}\n\nThe ${appPath} app of scenario-prover with ${appPath}/bugs/${bug.id}/fix.patch reversed.`;
}

function headBody(bug: ZooBug): string {
  return `Applies ${appPath}/bugs/${bug.id}/fix.patch. Proved by ${bug.scenario}.`;
}

/** simple-git refuses `-c core.hooksPath` unless told: the commits set it so no hook of the developer's runs. */
function sandboxGit(dir: string): SimpleGit {
  return simpleGit({ baseDir: dir, unsafe: { allowUnsafeHooksPath: true } });
}
