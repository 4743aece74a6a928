import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { packageRoot } from "../package-root.ts";

/** The @playwright/test a proof runs: its CLI script and its version, as its package.json says. */
export interface InstalledPlaywright {
  readonly cli: string;
  /** Its package.json, which the version was read from. */
  readonly file: string;
  readonly version: string | undefined;
}

/** Why the installed @playwright/test cannot run a proof. */
export interface PlaywrightMismatch {
  readonly file: string;
  readonly detail: string;
}

const readJson = (file: string): Readonly<Record<string, unknown>> =>
  JSON.parse(readFileSync(file, "utf8")) as Readonly<Record<string, unknown>>;

/** The @playwright/test versions scenario-prover works with: the range its package.json gives its peer. */
export function playwrightPeerRange(): string {
  const peers = readJson(join(packageRoot, "package.json")).peerDependencies as Readonly<Record<string, string>> | undefined;
  const range = peers?.["@playwright/test"];
  if (range === undefined) throw new Error(`${join(packageRoot, "package.json")} gives no peerDependencies range for @playwright/test`);
  return range;
}

/**
 * The @playwright/test resolved from `from` (default: this module), the copy the harness and the
 * config share as a peer dependency; undefined when none can be found.
 */
export function installedPlaywright(from: string = import.meta.url): InstalledPlaywright | undefined {
  let cli: string;
  try {
    cli = createRequire(from).resolve("@playwright/test/cli");
  } catch {
    return undefined;
  }
  // The package.json beside the CLI script is the one of the copy that runs.
  const file = join(dirname(cli), "package.json");
  let version: unknown;
  try {
    version = readJson(file).version;
  } catch {
    version = undefined;
  }
  return { cli, file, version: typeof version === "string" ? version : undefined };
}

type Triple = readonly [number, number, number];

const versionText = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/;
const comparatorText = /^(>=|<=|>|<|=)?v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/;

/** 1.38.0 → [1, 38, 0]; a pre-release (1.66.0-alpha-…) counts as its version. */
function parseVersion(version: string): Triple | undefined {
  const found = versionText.exec(version.trim());
  return found === null ? undefined : [Number(found[1]), Number(found[2]), Number(found[3])];
}

const compare = (a: Triple, b: Triple) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

function meets(version: Triple, comparator: string): boolean {
  const found = comparatorText.exec(comparator);
  if (found === null)
    throw new Error(`the peer range's comparator ${JSON.stringify(comparator)} is not one of >=, <=, >, <, = and a version`);
  const [, operator = "=", major, minor, patch] = found;
  const bound: Triple = [Number(major), Number(minor ?? 0), Number(patch ?? 0)];
  const order = compare(version, bound);
  switch (operator) {
    case ">=":
      return order >= 0;
    case ">":
      return order > 0;
    case "<=":
      return order <= 0;
    case "<":
      return order < 0;
    default:
      // `=1.65` means every 1.65.x: compare only the parts given.
      return [major, minor, patch].every((part, index) => part === undefined || Number(part) === version[index]);
  }
}

/** Whether `version` is in `range`: comparators joined by spaces, alternatives by `||` (the forms a peer range here takes). */
export function inRange(version: string, range: string): boolean {
  const parsed = parseVersion(version);
  if (parsed === undefined) return false;
  return range.split("||").some((set) =>
    set
      .trim()
      .split(/\s+/)
      .every((comparator) => meets(parsed, comparator)),
  );
}

/** The version to install for `range`: its lowest bound's major.minor (>=1.65.0 → 1.65), else the range itself. */
export function suggested(range: string): string {
  const lowest = /(?:^|\s)>=?v?(\d+)(?:\.(\d+))?/.exec(range);
  return lowest === null ? range : `${lowest[1]}.${lowest[2] ?? 0}`;
}

/**
 * Where the config `configFile` finds scenario-prover (its package.json, a real path), so the runner is
 * the @playwright/test the config's and the scenarios' `scenario-prover/harness` import; this module
 * when the config's folder finds none.
 */
export function harnessOf(configFile: string): string {
  try {
    return createRequire(configFile).resolve("scenario-prover/package.json");
  } catch {
    return import.meta.url;
  }
}

/**
 * The @playwright/test the scenarios of `configFile` would run: the one beside the scenario-prover installed for it, else
 * (init run through npx, before scenario-prover is installed there) the repository's own copy, which its scenarios will
 * share, else this scenario-prover's.
 */
export function scenarioPlaywright(configFile: string): InstalledPlaywright | undefined {
  const harness = harnessOf(configFile);
  if (harness !== import.meta.url) return installedPlaywright(harness);
  return installedPlaywright(configFile) ?? installedPlaywright();
}

/** The command that puts a @playwright/test in `range` in place of the repository's, for each package manager. */
export function upgradeCommand(range: string = playwrightPeerRange()): string {
  const version = suggested(range);
  return `npm i -D @playwright/test@${version} (or pnpm add -D @playwright/test@${version}, yarn add -D @playwright/test@${version})`;
}

/**
 * Why `installed` cannot run a proof (outside the peer range, or no version), without the fix, which
 * the caller gives for the repository; undefined when it can, or when none is installed (the caller
 * reports that, as playwrightCli does).
 */
export function playwrightMismatch(
  installed: InstalledPlaywright | undefined = installedPlaywright(),
  range: string = playwrightPeerRange(),
): PlaywrightMismatch | undefined {
  if (installed === undefined) return undefined;
  if (installed.version !== undefined && inRange(installed.version, range)) return undefined;
  const which = installed.version === undefined ? "gives no version" : `is version ${installed.version}`;
  return {
    file: installed.file,
    detail: `the @playwright/test that runs the proof (${installed.file}) ${which}, and scenario-prover needs ${range} (its peer dependency): a Playwright outside that range can run your own tests, but not a proof.`,
  };
}
