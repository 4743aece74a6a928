import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import {
  lockfileNames,
  proverBin,
  proverBins,
  type ManagerRun,
  type ManagerUnknown,
  type PackageManager,
} from "../install/package-manager.ts";

export { lockfileNames, type PackageManager } from "../install/package-manager.ts";

export interface ManagerChoice {
  readonly manager: PackageManager;
  /** What decided it, e.g. "pnpm-lock.yaml", "packageManager in package.json", "no lockfile". */
  readonly why: string;
}

const managers: ReadonlyArray<PackageManager> = ["npm", "pnpm", "yarn", "bun"];

/** The manager of the nearest lockfile (a path relative to the app), else package.json's `packageManager`, else npm. */
export function chooseManager(lockfile: string | undefined, packageManagerField: unknown): ManagerChoice {
  const locked = lockfile === undefined ? undefined : lockfileNames.find(([file]) => file === basename(lockfile));
  if (locked !== undefined && lockfile !== undefined) return { manager: locked[1], why: lockfile };
  const named = typeof packageManagerField === "string" ? managers.find((name) => packageManagerField.startsWith(`${name}@`)) : undefined;
  if (named !== undefined) return { manager: named, why: `packageManager ${JSON.stringify(packageManagerField)} in package.json` };
  return { manager: "npm", why: "no lockfile" };
}

/** The command that runs package.json script `name`, with `args` passed on to it when given. */
export function runScript(manager: PackageManager, name: string, args: string | undefined): string {
  const commands: { readonly [M in PackageManager]: string } = {
    npm: name === "start" ? "npm start" : `npm run ${name}`,
    pnpm: `pnpm ${name}`,
    yarn: `yarn ${name}`,
    bun: `bun run ${name}`,
  };
  if (args === undefined) return commands[manager];
  // npm keeps what follows the script's name for itself unless `--` comes first.
  return manager === "npm" ? `${commands.npm} -- ${args}` : `${commands[manager]} ${args}`;
}

/** How the user runs the app's `playwright` bin, with each package manager. */
const playwrightBins: { readonly [M in PackageManager]: string } = {
  npm: "npx playwright",
  pnpm: "pnpm exec playwright",
  yarn: "yarn playwright",
  bun: "bunx playwright",
};

/** How the user runs the installed `playwright` bin: as proverBin runs the prover's, through the package manager when its pinned version runs here, else with npx. */
export function playwrightBin(manager: PackageManager, run: ManagerRun | ManagerUnknown | undefined): string {
  return proverBin(manager, run) === proverBins.npm ? playwrightBins.npm : playwrightBins[manager];
}

/** How the user adds a dev dependency: the arguments after the package manager, before the package. */
const addArgs: { readonly [M in PackageManager]: string } = {
  npm: "install -D",
  pnpm: "add -D",
  yarn: "add -D",
  bun: "add -d",
};

/** Whether `dir` is the root of a workspace: pnpm-workspace.yaml, or package.json's `workspaces`. */
function workspaceRoot(dir: string, packageJson: Readonly<Record<string, unknown>>): boolean {
  return existsSync(join(dir, "pnpm-workspace.yaml")) || packageJson.workspaces !== undefined;
}

/**
 * The command, run in `dir`, that adds `spec` (scenario-prover, or a version of a package) to the
 * app's dev dependencies: by the pinned manager when the machine's is another version, and at a
 * workspace's root with pnpm's `-w` or yarn 1's `-W`.
 */
export function addDevDependency(
  manager: PackageManager,
  run: ManagerRun | ManagerUnknown | undefined,
  dir: string,
  packageJson: Readonly<Record<string, unknown>>,
  spec: string,
): string {
  const ran = run?.kind === "run" && run.manager === manager ? run : undefined;
  const runner = ran === undefined || ran.machine ? manager : ran.prefix.join(" ");
  const yarnClassic = manager === "yarn" && (ran === undefined || /^1(\.|$)/.test(ran.version));
  const rootFlag = !workspaceRoot(dir, packageJson) ? "" : manager === "pnpm" ? " -w" : yarnClassic ? " -W" : "";
  return `${runner} ${addArgs[manager]}${rootFlag} ${spec}`;
}

/** What init prints about the package manager, with the version that runs and why when it is not the machine's. */
export function describeManager(choice: ManagerChoice, run: ManagerRun | ManagerUnknown | undefined, machine: string | undefined): string {
  if (run?.kind !== "run" || run.manager !== choice.manager) return `${choice.manager} (${choice.why})`;
  if (run.machine) return `${choice.manager} (${choice.why})`;
  const mine = machine === undefined ? `no ${run.manager} on this machine` : `this machine's ${run.manager} is ${machine}`;
  return `${run.shown} through ${run.via ?? "npx"} (${run.why}; ${mine})`;
}

/**
 * app.start when the pinned manager is not the machine's: a script run through the manager runs
 * its plain command instead where it has one, else through the pin's prefix; a bin is left as is.
 */
export function withPinnedStart<Start extends { readonly command: string; readonly why: string; readonly asWritten?: string }>(
  start: Start,
  run: ManagerRun | ManagerUnknown | undefined,
): Start {
  if (run?.kind !== "run" || run.machine) return start;
  const [first, ...rest] = start.command.split(" ");
  if (first !== run.manager) return start;
  if (start.asWritten !== undefined) {
    return {
      ...start,
      command: start.asWritten,
      why: `${start.why}; the script's own command, not run through ${run.shown} (${run.why}), which would need ${run.via ?? "npx"}`,
    };
  }
  const fetched =
    run.via === "corepack"
      ? "run by corepack"
      : "fetched by npx from outside the repository (--prefix=/), so its npm overrides cannot stop it";
  return {
    ...start,
    command: [...run.prefix, ...rest].join(" "),
    why: `${start.why}; ${run.manager} there is ${run.shown} (${run.why}), ${fetched}`,
  };
}
