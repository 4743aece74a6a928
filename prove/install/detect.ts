import { existsSync } from "node:fs";
import { join } from "node:path";
import { berryLinkerSource, nodeModulesLinker } from "./berry-linker.ts";
import { resolvePackageManager, machineVersions, type MachineVersions, type ManagerRun, type PackageManager } from "./package-manager.ts";

/** How a side's dependencies get installed: a command in a folder, nothing to install, or an install that cannot be told. */
export type InstallPlan =
  | {
      readonly kind: "command";
      /** What progress and messages show, e.g. `pnpm@9.15.9 install --frozen-lockfile (packageManager in package.json)`. */
      readonly label: string;
      readonly command: string;
      /** Undefined for a shell command line from the config. */
      readonly args: ReadonlyArray<string> | undefined;
      readonly cwd: string;
      /** The package manager that runs, for `install: "auto"`. */
      readonly manager?: ManagerRun;
      /** Variables set for this install alone, over the developer's (yarn berry's linker). */
      readonly env?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "skip"; readonly reason: string }
  | { readonly kind: "unknown"; readonly detail: string };

/** Whether a manager at a version is yarn berry (yarn 2 or later, or "latest"). */
const isBerry = (manager: PackageManager, version: string) => manager === "yarn" && !/^1(\.|$)/.test(version);

/** The install's arguments for a manager (and major version), from its lockfile or without one. */
function installArgs(manager: PackageManager, version: string, locked: boolean): ReadonlyArray<string> {
  const berry = isBerry(manager, version);
  const args: { readonly [M in PackageManager]: readonly [withLockfile: ReadonlyArray<string>, without: ReadonlyArray<string>] } = {
    pnpm: [
      ["install", "--frozen-lockfile"],
      ["install", "--no-frozen-lockfile"],
    ],
    // The lockfile pins every version and checksum, so npm need not ask the registry whether its cache is current:
    // measured on the express fixture, about 1 CPU-s and 0.9 s less a side's install, the same node_modules.
    npm: [
      ["ci", "--prefer-offline", "--no-audit", "--no-fund"],
      ["install", "--no-audit", "--no-fund"],
    ],
    yarn: berry
      ? [
          ["install", "--immutable"],
          ["install", "--no-immutable"],
        ]
      : [["install", "--frozen-lockfile"], ["install"]],
    bun: [["install", "--frozen-lockfile"], ["install"]],
  };
  return args[manager][locked ? 0 : 1];
}

/**
 * The install for an app folder inside a worktree, from `app.install`: "auto" picks the manager and
 * version (see resolvePackageManager), or `npm install` without a lockfile or pin when the app has a
 * package.json; false installs nothing; any other string is a shell command run in the app folder.
 * Yarn berry installs into node_modules when nothing the worktree or the developer set names its linker.
 */
export function planInstall(
  install: string | false,
  appDir: string,
  worktreeRoot: string,
  machine: MachineVersions = machineVersions,
): InstallPlan {
  if (install === false) return { kind: "skip", reason: "app.install is false" };
  if (install !== "auto") {
    return { kind: "command", label: install, command: install, args: undefined, cwd: appDir };
  }
  const run = resolvePackageManager(appDir, worktreeRoot, machine);
  if (run?.kind === "unknown") return { kind: "unknown", detail: run.detail };
  if (run === undefined) {
    if (!existsSync(join(appDir, "package.json"))) return { kind: "skip", reason: "no package.json" };
    return { kind: "command", label: "npm install", command: "npm", args: ["install", "--no-audit", "--no-fund"], cwd: appDir };
  }
  const args = installArgs(run.manager, run.version, run.lockfile !== undefined);
  const [command, ...first] = run.prefix;
  const env = isBerry(run.manager, run.version) && berryLinkerSource(run.dir) === undefined ? nodeModulesLinker : undefined;
  const shown = [...Object.entries(env ?? {}).map(([name, value]) => `${name}=${value}`), run.shown, ...args].join(" ");
  return {
    kind: "command",
    label: run.machine ? shown : `${shown} (${run.why})`,
    command,
    args: [...first, ...args],
    cwd: run.dir,
    manager: run,
    ...(env === undefined ? {} : { env }),
  };
}
