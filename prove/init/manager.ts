import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { lockfileNames, type ManagerRun, type ManagerUnknown, type PackageManager } from "../install/package-manager.ts";

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
export function runScript(manager: PackageManager, name: "dev" | "start", args: string | undefined): string {
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

/** How the user adds scenario-prover as a dev dependency, with the arguments after the package manager. */
const addArgs: { readonly [M in PackageManager]: string } = {
  npm: "install -D scenario-prover",
  pnpm: "add -D scenario-prover",
  yarn: "add -D scenario-prover",
  bun: "add -d scenario-prover",
};

/** Whether `dir` is the root of a workspace: pnpm-workspace.yaml, or package.json's `workspaces`. */
function workspaceRoot(dir: string, packageJson: Readonly<Record<string, unknown>>): boolean {
  return existsSync(join(dir, "pnpm-workspace.yaml")) || packageJson.workspaces !== undefined;
}

/**
 * The command that adds scenario-prover to the app in `dir`, run there: by the pinned version when
 * the machine's is not it (`npx --yes pnpm@9.15.9 add -D scenario-prover`), and at a workspace's
 * root with the flag pnpm (`-w`) and yarn 1 (`-W`) want to add to the root package.
 */
export function addProver(
  manager: PackageManager,
  run: ManagerRun | ManagerUnknown | undefined,
  dir: string,
  packageJson: Readonly<Record<string, unknown>>,
): string {
  const ran = run?.kind === "run" && run.manager === manager ? run : undefined;
  const runner = ran === undefined || ran.machine ? manager : ran.prefix.join(" ");
  const yarnClassic = manager === "yarn" && (ran === undefined || /^1(\.|$)/.test(ran.version));
  const rootFlag = !workspaceRoot(dir, packageJson) ? "" : manager === "pnpm" ? " -w" : yarnClassic ? " -W" : "";
  return `${runner} ${addArgs[manager]}`.replace(" -D ", ` -D${rootFlag} `);
}

/** What init prints about the package manager: with the version that runs and why when it is not the machine's, e.g. "pnpm@9.15.9 through npx (packageManager in package.json; this machine's pnpm is 12.4.2)". */
export function describeManager(choice: ManagerChoice, run: ManagerRun | ManagerUnknown | undefined, machine: string | undefined): string {
  if (run?.kind !== "run" || run.manager !== choice.manager) return `${choice.manager} (${choice.why})`;
  if (run.machine) return `${choice.manager} (${choice.why})`;
  const mine = machine === undefined ? `no ${run.manager} on this machine` : `this machine's ${run.manager} is ${machine}`;
  return `${run.shown} through ${run.via ?? "npx"} (${run.why}; ${mine})`;
}

/**
 * app.start when the pinned version is not the machine's: a command init made to run the script
 * through the package manager (`pnpm dev`) runs the script's plain command without it where there
 * is one (`node server.js`), else gets the pinned one's npx prefix (`npx --yes pnpm@9.15.9 dev`),
 * and its reason says so; one that runs a bin (`npx vite …`) needs no package manager and is left as it is.
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
  return {
    ...start,
    command: [...run.prefix, ...rest].join(" "),
    why: `${start.why}; run by ${run.shown} through ${run.via ?? "npx"}: ${run.why}`,
  };
}
