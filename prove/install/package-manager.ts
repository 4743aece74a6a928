import { execFileSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative, sep } from "node:path";

/** The package managers the prover installs with. */
export type PackageManager = "npm" | "pnpm" | "yarn" | "bun";

const managers: ReadonlyArray<PackageManager> = ["npm", "pnpm", "yarn", "bun"];

/** Lockfile names, in the order they win when one folder holds several. */
export const lockfileNames: ReadonlyArray<readonly [file: string, manager: PackageManager]> = [
  ["pnpm-lock.yaml", "pnpm"],
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"],
  ["yarn.lock", "yarn"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
];

/** The version of a package manager on this machine's PATH ("12.4.2"); undefined when there is none. */
export type MachineVersions = (manager: PackageManager) => string | undefined;

/** How a repository's package manager runs here: the machine's own binary, or the pinned version through corepack or npx. */
export interface ManagerRun {
  readonly kind: "run";
  readonly manager: PackageManager;
  /** The version that runs: the machine's ("12.4.2"), or the pin npx fetches ("9.15.9", "8" for the newest pnpm 8, "latest"). */
  readonly version: string;
  /** What decided the version, e.g. "packageManager in package.json", "lockfileVersion 6.0 in pnpm-lock.yaml", "no version pinned". */
  readonly why: string;
  /** True when the machine's own binary runs. */
  readonly machine: boolean;
  /** The command and first arguments: ["pnpm"], ["corepack", "pnpm@9.15.9"], or ["npx", "--yes", "--prefix=/", "pnpm@9.15.9"]. */
  readonly prefix: readonly [string, ...string[]];
  /** What runs a pinned version that is not the machine's (corepack when the binary is its shim, else npx); undefined for the machine's own. */
  readonly via?: "corepack" | "npx";
  /** How labels name it: "pnpm" for the machine's, "pnpm@9.15.9" for a pinned one. */
  readonly shown: string;
  /** The lockfile it installs from, absolute; undefined for none. */
  readonly lockfile: string | undefined;
  /** Where it installs: the lockfile's folder, else the folder of the package.json that pins it, else the app's. */
  readonly dir: string;
}

/** A repository whose package manager's version cannot be told (a yarn berry lockfile and no packageManager). */
export interface ManagerUnknown {
  readonly kind: "unknown";
  readonly manager: PackageManager;
  /** What was found and what to do, for an error message. */
  readonly detail: string;
}

/** Folders from `from` up to `top`, both included; just `from` when it is not inside `top`. */
export function upTo(from: string, top: string): string[] {
  const dirs = [from];
  let dir = from;
  while (dir !== top && !relative(top, dir).startsWith("..") && dirname(dir) !== dir) {
    dir = dirname(dir);
    dirs.push(dir);
  }
  return dirs;
}

/** The first `bytes` of a file: a lockfile's version is in its first lines, and a lockfile can be megabytes. */
function head(file: string, bytes = 4096): string {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.toString("utf8", 0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

const cached = new Map<PackageManager, string | undefined>();

/** The versions of the package managers on PATH, asked once each, outside any project (so no packageManager field switches them). */
export const machineVersions: MachineVersions = (manager) => {
  if (!cached.has(manager)) {
    let version: string | undefined;
    try {
      version = execFileSync(manager, ["--version"], {
        cwd: tmpdir(),
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
        timeout: 30_000,
      }).trim();
    } catch {
      version = undefined;
    }
    cached.set(manager, version !== undefined && /^\d+\.\d+/.test(version) ? version : undefined);
  }
  return cached.get(manager);
};

/** A version's major number; undefined for a tag like "latest". */
const majorOf = (version: string): number | undefined => {
  const major = /^v?(\d+)/.exec(version)?.[1];
  return major === undefined ? undefined : Number(major);
};

/** The version a repository wants: exactly `version`'s major, or (`orLater`) that major or a later one. */
interface Wanted {
  readonly version: string;
  readonly orLater: boolean;
  readonly why: string;
}

/** `packageManager` ("pnpm@9.15.9+sha512.…") of the nearest package.json from the app up to the root that has one. */
function packageManagerPin(dirs: ReadonlyArray<string>, root: string) {
  for (const dir of dirs) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    let field: unknown;
    try {
      field = (JSON.parse(readFileSync(file, "utf8")) as { packageManager?: unknown }).packageManager;
    } catch {
      continue;
    }
    if (typeof field !== "string") continue;
    const match = /^([^@]+)@([^+]+)/.exec(field.trim());
    const manager = managers.find((name) => name === match?.[1]);
    if (manager === undefined || match?.[2] === undefined) continue;
    return { manager, version: match[2], dir, why: `packageManager in ${relative(root, file) || "package.json"}` };
  }
  return undefined;
}

/** Yarn berry's `__metadata.version` (the lockfile's format) to the yarn major that writes it. */
const berryMajors: Readonly<Record<string, string>> = { "4": "2", "5": "3", "6": "3", "8": "4" };

/** The version a lockfile's own format asks for; undefined when any version reads it; a string saying why when it cannot be told. */
function lockfileWants(manager: PackageManager, file: string, shown: string): Wanted | string | undefined {
  const text = head(file);
  if (manager === "pnpm") {
    const version = /^lockfileVersion:\s*['"]?(\d+)(\.\d+)?/m.exec(text);
    if (version?.[1] === undefined) return undefined;
    const major = Number(version[1]);
    const why = `lockfileVersion ${version[1]}${version[2] ?? ""} in ${shown}`;
    if (major <= 5) return { version: "7", orLater: false, why };
    if (major === 6) return { version: "8", orLater: false, why };
    return { version: "9", orLater: true, why };
  }
  if (manager === "yarn") {
    if (/^# yarn lockfile v1/m.test(text)) return { version: "1", orLater: false, why: `yarn lockfile v1 in ${shown}` };
    if (!/^__metadata:/m.test(text)) return { version: "1", orLater: false, why: `${shown} without __metadata (yarn 1's format)` };
    const format = /^__metadata:\s*\n(?:[ \t]+.*\n)*?[ \t]+version:\s*(\d+)/m.exec(text)?.[1];
    const major = format === undefined ? undefined : berryMajors[format];
    if (major === undefined) {
      return `${shown} is a yarn berry lockfile (__metadata version ${format ?? "missing"}), and no package.json names the yarn version in packageManager`;
    }
    return { version: major, orLater: false, why: `__metadata version ${format} in ${shown}` };
  }
  return undefined;
}

/** Whether `manager` on PATH is corepack's shim (`corepack enable`): corepack then runs any version asked of it. */
export type CorepackShims = (manager: PackageManager) => boolean;

/** Whether the first `manager` on `path` resolves into corepack's own folder, as the shims `corepack enable` links do. */
export function corepackShimOnPath(manager: PackageManager, path = process.env.PATH ?? ""): boolean {
  for (const dir of path.split(delimiter).filter((entry) => entry !== "")) {
    const file = join(dir, manager);
    if (!existsSync(file)) continue;
    try {
      return realpathSync(file).split(sep).includes("corepack");
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * npx's arguments that run `manager` at `version` in the current folder: yarn 2 and later are
 * published as @yarnpkg/cli-dist, whose bin is `yarn`. `--prefix=/` makes npx fetch it as from
 * outside the repository: npx otherwise reads the repository's package.json first, and its npm
 * `overrides` stop it (`EOVERRIDE … conflicts with direct dependency`) before the package manager runs.
 */
function npxPrefix(manager: PackageManager, version: string): readonly [string, ...string[]] {
  const major = majorOf(version);
  if (manager === "yarn" && (major === undefined || major >= 2))
    return ["npx", "--yes", "--prefix=/", `--package=@yarnpkg/cli-dist@${version}`, "yarn"];
  return ["npx", "--yes", "--prefix=/", `${manager}@${version}`];
}

/**
 * The package manager and version that install the app in `appDir` inside worktree `root`: the
 * nearest lockfile names the manager, `packageManager` or else the lockfile's format its version.
 * The machine's binary runs when its major fits, else corepack (where the binary is its shim) or
 * npx runs the pin. Undefined with neither lockfile nor pin. `corepack` defaults to reading PATH,
 * and to no shims when `machine` is given.
 */
export function resolvePackageManager(
  appDir: string,
  root: string,
  machine: MachineVersions = machineVersions,
  corepack: CorepackShims = machine === machineVersions ? corepackShimOnPath : () => false,
): ManagerRun | ManagerUnknown | undefined {
  const dirs = upTo(appDir, root);
  const locked = dirs.flatMap((dir) =>
    lockfileNames.filter(([file]) => existsSync(join(dir, file))).map(([file, manager]) => ({ file: join(dir, file), dir, manager })),
  )[0];
  const pin = packageManagerPin(dirs, root);
  const manager = locked?.manager ?? pin?.manager;
  if (manager === undefined) return undefined;
  const fromLockfile = locked === undefined ? undefined : lockfileWants(manager, locked.file, relative(root, locked.file));
  const wanted = pin?.manager === manager ? { version: pin.version, orLater: false, why: pin.why } : fromLockfile;
  if (typeof wanted === "string") {
    return {
      kind: "unknown",
      manager,
      detail: `${wanted}: add "packageManager": "yarn@<version>" to package.json, or set app.install to the command that installs the app (e.g. "yarn install --immutable")`,
    };
  }
  const dir = locked?.dir ?? pin?.dir ?? appDir;
  const mine = machine(manager);
  const base = { kind: "run" as const, manager, lockfile: locked?.file, dir };
  if (wanted === undefined) {
    if (mine !== undefined) return { ...base, version: mine, why: "no version pinned", machine: true, prefix: [manager], shown: manager };
    return {
      ...base,
      version: "latest",
      why: `no version pinned, and no ${manager} on this machine`,
      machine: false,
      via: "npx",
      prefix: npxPrefix(manager, "latest"),
      shown: `${manager}@latest`,
    };
  }
  const [have, want] = [mine === undefined ? undefined : majorOf(mine), majorOf(wanted.version)];
  const fits = have !== undefined && want !== undefined && (wanted.orLater ? have >= want : have === want);
  if (fits && mine !== undefined) return { ...base, version: mine, why: wanted.why, machine: true, prefix: [manager], shown: manager };
  const pinned = { ...base, version: wanted.version, why: wanted.why, machine: false, shown: `${manager}@${wanted.version}` };
  if (manager !== "bun" && manager !== "npm" && corepack(manager))
    return { ...pinned, via: "corepack", prefix: ["corepack", `${manager}@${wanted.version}`] };
  return { ...pinned, via: "npx", prefix: npxPrefix(manager, wanted.version) };
}

/** How the user runs the installed prove-scenario bin, by package manager. */
export const proverBins: { readonly [M in PackageManager]: string } = {
  npm: "npx prove-scenario",
  pnpm: "pnpm prove-scenario",
  yarn: "yarn prove-scenario",
  bun: "bunx prove-scenario",
};

/** How the user runs the installed bin: through the package manager when its pinned version runs here, else with npx. */
export function proverBin(manager: PackageManager, run: ManagerRun | ManagerUnknown | undefined): string {
  return run?.kind === "run" && !run.machine && run.via !== "corepack" ? proverBins.npm : proverBins[manager];
}
