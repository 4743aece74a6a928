import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
// init boots the app as a test does, with the harness's own code but not through harness/index.ts,
// which loads Playwright's test runner (and is the package's public harness, where these do not belong).
// eslint-disable-next-line no-restricted-imports -- see above
import { bootApp, type BootedApp } from "../../harness/boot.ts";
import type { ScenarioAppConfig } from "../../harness/index.ts";
import type { InstallPlan } from "../install/detect.ts";
import { stepEnvironment } from "../install/run-step.ts";
import { stripAnsi } from "../outcome/error-text.ts";
import { configFile } from "./write.ts";

/** The install and the start init is about to write, as it tries them in the app's folder. */
export interface TryPlan {
  /** What `install: "auto"` runs for the app (see planInstall). */
  readonly install: InstallPlan;
  /** app.start's server command as written, `{port}` and all, for messages. */
  readonly start: string;
  /** The app's folder, where the start runs. */
  readonly dir: string;
  /** The app as init writes it, which the try boots as a test does (see triedApp). */
  readonly app: ScenarioAppConfig;
  /** What else the try starts with the server, each named for its line (services, app.prepare, the other processes). */
  readonly beside: ReadonlyArray<string>;
  /** A folder as messages name it, e.g. "." or "..". */
  readonly where: (dir: string) => string;
}

/** What trying showed: a line for each command tried that worked (or not tried, and why), and a message for each that failed. */
export interface Tried {
  readonly worked: ReadonlyArray<string>;
  readonly failed: ReadonlyArray<string>;
}

/** Tries the install, then the start, printing a line as each begins. */
export type TryCommands = (plan: TryPlan, progress: (line: string) => void) => Promise<Tried>;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** A command's output for a message: all of it when short, else its first and last lines, where the cause and the verdict usually are. */
export function outputExcerpt(output: string, first = 10, last = 6): string {
  const lines = stripAnsi(output)
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "");
  if (lines.length <= first + last + 1) return lines.join("\n");
  return [...lines.slice(0, first), `[${lines.length - first - last} lines left out]`, ...lines.slice(-last)].join("\n");
}

/**
 * The install as init tries it: as written, except that `npm ci` over a node_modules that is there
 * already runs with --dry-run (it checks the lockfile against package.json without deleting and
 * installing everything again).
 */
function installToTry(plan: Extract<InstallPlan, { kind: "command" }>) {
  const dry = plan.args?.[0] === "ci" && plan.command === "npm" && existsSync(join(plan.cwd, "node_modules"));
  return dry
    ? { ...plan, label: `${plan.label} --dry-run (node_modules is there already)`, args: [...(plan.args ?? []), "--dry-run"] }
    : plan;
}

/** Runs the install init is about to write; a message with its output when it fails. */
async function tryInstall(plan: TryPlan, progress: (line: string) => void): Promise<{ worked: string } | { failed: string }> {
  if (plan.install.kind === "skip") return { worked: `install: nothing to install (${plan.install.reason})` };
  if (plan.install.kind === "unknown")
    return { worked: "install: not tried, as init cannot tell which version installs the app (see the note)" };
  const install = installToTry(plan.install);
  const where = plan.where(install.cwd);
  progress(`trying the install: ${install.label} in ${where} …`);
  const started = performance.now();
  // With the plan's own variables, as a side's install has them (berry's linker, where the repository names none).
  const env = stepEnvironment(install);
  const options = { cwd: install.cwd, env, extendEnv: false, all: true, reject: false, stdin: "ignore" } as const;
  const run = await (install.args === undefined
    ? execa(install.command, { ...options, shell: true })
    : execa(install.command, install.args, options));
  if (run.exitCode === 0) return { worked: `install: ${install.label} in ${where}: worked in ${seconds(performance.now() - started)}` };
  const how = run.exitCode === undefined ? (run.originalMessage ?? "could not start") : `exited with code ${run.exitCode}`;
  return {
    failed:
      `the install init writes failed when init ran it: \`${install.label}\` in ${where} ${how}:\n${outputExcerpt(run.all ?? "")}\n` +
      `A proof runs this install in each side's worktree: make it succeed here, or set app.install in ${configFile} to the command that installs the app.`,
  };
}

/**
 * Boots the app as a test does (its services, app.prepare and every process, a fresh home, the allowlisted environment,
 * free ports) until its ready path answers, then stops it all.
 */
async function tryStart(plan: TryPlan, progress: (line: string) => void): Promise<{ worked: string } | { failed: string }> {
  const path = plan.app.ready !== undefined && "path" in plan.app.ready ? plan.app.ready.path : "/";
  // The boot asks for app.ready.warm's routes once the ready path answers, as before a test.
  const warm = plan.app.ready?.warm ?? [];
  const asks = warm.length === 0 ? `GET ${path}` : `GET ${path} and app.ready.warm's ${warm.map((route) => `GET ${route}`).join(", ")}`;
  const beside = plan.beside.length === 0 ? "" : ` with ${plan.beside.join(", ")}`;
  progress(`trying the start: \`${plan.start}\`${beside} until ${asks} answer${warm.length === 0 ? "s" : ""} …`);
  const started = performance.now();
  let booted: BootedApp;
  try {
    // No replay agent: `{replay}` points where nothing listens, as in a test without a transcript.
    booted = await bootApp(plan.app, plan.dir, { replayUrl: undefined, replayCommand: undefined, replayExecutable: undefined });
  } catch (error) {
    // The harness's tag says which step failed to the prover; here the sentence says it.
    const message = (error instanceof Error ? error.message : String(error)).replace(/^\[scenario-harness:\w+\] /, "");
    const fields = [
      "app.start",
      "app.ready",
      ...(plan.app.services === undefined ? [] : ["app.services"]),
      ...(plan.app.prepare === undefined ? [] : ["app.prepare"]),
    ];
    const named = `${fields.slice(0, -1).join(", ")} or ${fields.at(-1) ?? ""}`;
    return { failed: `the start init writes failed when init ran it: ${message}\nFix ${named} in ${configFile}.` };
  }
  const answered = performance.now() - started;
  try {
    await booted.stop();
  } finally {
    await rm(booted.base, { recursive: true, force: true });
  }
  return { worked: `start: \`${plan.start}\`${beside}: ${asks} answered in ${seconds(answered)}, then init stopped it` };
}

/** Runs the install, then (when it worked) the start, in the app's own folder. */
export const tryCommands: TryCommands = async (plan, progress) => {
  const install = await tryInstall(plan, progress);
  if ("failed" in install) return { worked: [], failed: [install.failed, "init did not try the start, as the install failed."] };
  const start = await tryStart(plan, progress);
  return "failed" in start ? { worked: [install.worked], failed: [start.failed] } : { worked: [install.worked, start.worked], failed: [] };
};
