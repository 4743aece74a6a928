import { basename } from "node:path";

/** The package managers init knows. */
export type PackageManager = "npm" | "pnpm" | "yarn" | "bun";

/** Lockfile names, in the order they win when one folder holds several. */
export const lockfileNames: ReadonlyArray<readonly [file: string, manager: PackageManager]> = [
  ["pnpm-lock.yaml", "pnpm"],
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"],
  ["yarn.lock", "yarn"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
];

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

/** How the user runs the installed prove-scenario bin. */
export const proverBin: { readonly [M in PackageManager]: string } = {
  npm: "npx prove-scenario",
  pnpm: "pnpm prove-scenario",
  yarn: "yarn prove-scenario",
  bun: "bunx prove-scenario",
};

/** How the user adds scenario-prover as a dev dependency. */
export const addProver: { readonly [M in PackageManager]: string } = {
  npm: "npm install -D scenario-prover",
  pnpm: "pnpm add -D scenario-prover",
  yarn: "yarn add -D scenario-prover",
  bun: "bun add -d scenario-prover",
};
