import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { addDevDependency } from "../init/manager.ts";
import { machineVersions, resolvePackageManager, upTo, type MachineVersions } from "../install/package-manager.ts";
import { playwrightPeerRange, suggested } from "./version.ts";

/** The folder, in the app's, that holds the config and the scenarios as a package of their own when the app's package cannot take a newer Playwright. */
export const ownFolder = "proofs";

/**
 * Where the scenarios get the @playwright/test scenario-prover needs while the repository's own suite
 * keeps its older one, and the command that gives it.
 */
export interface OwnPlaywright {
  /** The config's folder, relative to the app's: "." (the app's own package in an npm or pnpm workspace) or ownFolder. */
  readonly folder: string;
  /** The command, run in the app's folder, that installs scenario-prover and a @playwright/test in range in that folder. */
  readonly command: string;
}

type Manifest = Readonly<Record<string, unknown>>;

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

const listsPlaywright = (manifest: Manifest) =>
  ["dependencies", "devDependencies"].some((key) => {
    const deps = manifest[key];
    return typeof deps === "object" && deps !== null && "@playwright/test" in deps;
  });

const isWorkspaceRoot = (dir: string) => existsSync(join(dir, "pnpm-workspace.yaml")) || readManifest(dir)?.workspaces !== undefined;

/**
 * The way for the app in `dir` (up to the repository's root `top`), installing `more` packages with it: a package of an npm or pnpm
 * workspace that does not list @playwright/test itself takes its own copy beside the root's; any
 * other app (its package.json lists the older one, or yarn, whose workspaces hoist a package's
 * copy over the root's) gets ownFolder, a package of its own with its own install (by npm for yarn 2+).
 */
export function ownPlaywright(
  dir: string,
  top: string,
  machine: MachineVersions = machineVersions,
  more: ReadonlyArray<string> = [],
): OwnPlaywright {
  const run = resolvePackageManager(dir, top, machine);
  const manager = run?.manager ?? "npm";
  const spec = ["scenario-prover", `@playwright/test@${suggested(playwrightPeerRange())}`, ...more].join(" ");
  const manifest = readManifest(dir);
  const inWorkspace = upTo(dir, top).slice(1).some(isWorkspaceRoot);
  // The config's folder is ownFolder already: what it lacks is the install.
  if (basename(dir) === ownFolder && manifest !== undefined)
    return { folder: ".", command: addDevDependency(manager, run, dir, manifest, spec) };
  if (inWorkspace && manifest !== undefined && !listsPlaywright(manifest) && (manager === "npm" || manager === "pnpm")) {
    return { folder: ".", command: addDevDependency(manager, run, dir, manifest, spec) };
  }
  // Yarn 2+ refuses a folder that is not one of the project's workspaces: npm installs it there instead.
  const berry = manager === "yarn" && !(run?.kind === "run" && /^1(\.|$)/.test(run.version));
  const add = berry
    ? addDevDependency("npm", undefined, join(dir, ownFolder), {}, spec)
    : addDevDependency(manager, run, join(dir, ownFolder), {}, spec);
  return { folder: ownFolder, command: `cd ${ownFolder} && ${add}` };
}

/** The repository holding `dir`: the nearest folder up with a .git entry, else the file system's root. */
export function repositoryOf(dir: string): string {
  return upTo(dir, "/").find((folder) => existsSync(join(folder, ".git"))) ?? dir;
}
