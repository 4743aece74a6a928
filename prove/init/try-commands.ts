import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
// init boots the app as a test does, with the harness's own code but not through harness/index.ts,
// which loads Playwright's test runner (and is the package's public harness, where these do not belong).
// eslint-disable-next-line no-restricted-imports -- see above
import { startAppServer } from "../../harness/app-server.ts";
// eslint-disable-next-line no-restricted-imports -- see above
import { appEnvironment, homeFiles, substitute } from "../../harness/environment.ts";
import type { InstallPlan } from "../install/detect.ts";
import { stepEnvironment } from "../install/run-step.ts";
import { stripAnsi } from "../outcome/error-text.ts";
import { configFile } from "./write.ts";

/** The install and the start init is about to write, as it tries them in the app's folder. */
export interface TryPlan {
  /** What `install: "auto"` runs for the app (see planInstall). */
  readonly install: InstallPlan;
  /** app.start as written, `{port}` and all. */
  readonly start: string;
  /** The app's folder, where the start runs. */
  readonly dir: string;
  readonly ready: { readonly path: string; readonly timeout?: number };
  /** app.provider as written. */
  readonly provider: Readonly<Record<string, string>>;
  /** What the start needs that init does not run (its services, its prepare), e.g. "the services postgres, redis": then init does not try it. */
  readonly needs: ReadonlyArray<string>;
  /** The names of the processes init writes beside the server: it tries the server alone. */
  readonly others: ReadonlyArray<string>;
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

/** Starts the app as a test does (a fresh home, the allowlisted environment, a free port) until its ready path answers, then stops it. */
async function tryStart(plan: TryPlan, progress: (line: string) => void): Promise<{ worked: string } | { failed: string }> {
  progress(`trying the start: \`${plan.start}\` until GET ${plan.ready.path} answers …`);
  const base = await mkdtemp(join(tmpdir(), "scenario-init-"));
  const dirs = { home: join(base, "home"), appHome: join(base, "app-home") };
  try {
    for (const [path, text] of Object.entries(homeFiles())) {
      await mkdir(dirname(join(dirs.home, path)), { recursive: true });
      await writeFile(join(dirs.home, path), text);
    }
    await mkdir(dirs.appHome);
    // No replay agent: `{replay}` points where nothing listens, as in a test without a transcript.
    const noAgent = { replayCommand: undefined, replayExecutable: undefined };
    const launch = (port: number) => ({
      command: substitute(plan.start, { port, home: dirs.appHome, replay: undefined, ...noAgent }),
      env: appEnvironment({ app: { start: plan.start, provider: plan.provider }, dirs, port, replayUrl: undefined, ...noAgent }),
    });
    const started = performance.now();
    const server = await startAppServer({ launch, cwd: plan.dir, ready: plan.ready, logFile: join(base, "server.log") });
    const answered = performance.now() - started;
    await server.stop();
    const alone = plan.others.length === 0 ? "" : ` (the server alone: init did not try ${plan.others.join(", ")})`;
    return { worked: `start: \`${plan.start}\`: GET ${plan.ready.path} answered in ${seconds(answered)}, then init stopped it${alone}` };
  } catch (error) {
    // The harness's tag says which step failed to the prover; here the sentence says it.
    const message = (error instanceof Error ? error.message : String(error)).replace(/^\[scenario-harness:\w+\] /, "");
    return { failed: `the start init writes failed when init ran it: ${message}\nFix app.start or app.ready in ${configFile}.` };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

/** Runs the install, then (when it worked) the start, in the app's own folder. */
export const tryCommands: TryCommands = async (plan, progress) => {
  const install = await tryInstall(plan, progress);
  if ("failed" in install) return { worked: [], failed: [install.failed, "init did not try the start, as the install failed."] };
  if (plan.needs.length > 0) {
    return {
      worked: [
        install.worked,
        `start: not tried, as the app needs ${plan.needs.join(" and ")}, which init does not run: ` +
          `run the example (npx playwright test -c ${configFile}) to run them with the app`,
      ],
      failed: [],
    };
  }
  const start = await tryStart(plan, progress);
  return "failed" in start ? { worked: [install.worked], failed: [start.failed] } : { worked: [install.worked, start.worked], failed: [] };
};
