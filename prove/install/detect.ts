import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** How a side's dependencies get installed: a command in a folder, or nothing to install. */
export type InstallPlan =
  | {
      readonly kind: "command";
      /** What progress and messages show, e.g. `pnpm install --frozen-lockfile`. */
      readonly label: string;
      readonly command: string;
      /** Undefined for a shell command line from the config. */
      readonly args: ReadonlyArray<string> | undefined;
      readonly cwd: string;
    }
  | { readonly kind: "skip"; readonly reason: string };

const lockfiles: ReadonlyArray<readonly [file: string, command: string, args: ReadonlyArray<string>]> = [
  ["pnpm-lock.yaml", "pnpm", ["install", "--frozen-lockfile"]],
  ["package-lock.json", "npm", ["ci"]],
  ["npm-shrinkwrap.json", "npm", ["ci"]],
  ["yarn.lock", "yarn", ["install", "--frozen-lockfile"]],
];

/** Folders from `from` up to `top`, both included; just `from` when it is not inside `top`. */
function upTo(from: string, top: string): string[] {
  const dirs = [from];
  let dir = from;
  while (dir !== top && !relative(top, dir).startsWith("..") && dirname(dir) !== dir) {
    dir = dirname(dir);
    dirs.push(dir);
  }
  return dirs;
}

/**
 * The install for an app folder inside a worktree. `install: "auto"` lets the nearest lockfile
 * decide, from the app folder up to the worktree's root (pnpm, then npm, then yarn in one
 * folder), and falls back to `npm install` when the app has a package.json but no lockfile;
 * false installs nothing; any other string is a shell command run in the app folder.
 */
export function planInstall(install: string | false, appDir: string, worktreeRoot: string): InstallPlan {
  if (install === false) return { kind: "skip", reason: "app.install is false" };
  if (install !== "auto") {
    return { kind: "command", label: install, command: install, args: undefined, cwd: appDir };
  }
  for (const dir of upTo(appDir, worktreeRoot)) {
    for (const [file, command, args] of lockfiles) {
      if (existsSync(join(dir, file))) return { kind: "command", label: [command, ...args].join(" "), command, args, cwd: dir };
    }
  }
  if (existsSync(join(appDir, "package.json"))) {
    return { kind: "command", label: "npm install", command: "npm", args: ["install", "--no-audit", "--no-fund"], cwd: appDir };
  }
  return { kind: "skip", reason: "no package.json" };
}
