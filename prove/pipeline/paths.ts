import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { ProveOptions } from "../cli/args.ts";
import { machineVersions, proverBin, proverBins, resolvePackageManager, type MachineVersions } from "../install/package-manager.ts";
import { commands } from "../options/commands.ts";
import { reproduceArguments } from "../options/reproduce.ts";

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/**
 * The scenario's folder in reports/: its path from the checkout without the test suffix, one
 * folder per segment (two scenarios of one name in different folders never share one), plus
 * `--<test>` when --grep picked one test.
 */
export function scenarioFolder(scenario: string, grep: string | undefined): string {
  const segments = scenario
    .replace(/\.(e2e|spec|test)\.[cm]?[jt]sx?$|\.[cm]?[jt]sx?$/, "")
    .split(/[\\/]+/)
    .map(slug)
    .filter((part) => part !== "");
  const path = segments.length === 0 ? "scenario" : segments.join("/");
  return grep === undefined || slug(grep) === "" ? path : `${path}--${slug(grep)}`;
}

/** Seven characters of a sha, or the ref made safe for a folder name when it did not resolve. */
const short = (sha: string | undefined, ref: string) => sha?.slice(0, 7) ?? (ref.replace(/[^A-Za-z0-9._-]+/g, "_") || "ref");

/** `reports/<scenario path>/<base7>-<head7>` under the invoking checkout; `scenario` is relative to it. */
export function defaultOutDir(
  root: string,
  scenario: string,
  options: Pick<ProveOptions, "base" | "head" | "grep">,
  baseSha: string | undefined,
  headSha: string | undefined,
): string {
  return join(root, "reports", scenarioFolder(scenario, options.grep), `${short(baseSha, options.base)}-${short(headSha, options.head)}`);
}

/** `reports/<base7>-<head7>` (and `-shard-<i>-of-<n>` for a shard) under the invoking checkout: a proof of several scenarios. */
export function defaultManyOutDir(root: string, options: ProveOptions, baseSha: string | undefined, headSha: string | undefined): string {
  const shard = options.shard === undefined ? "" : `-shard-${options.shard.index}-of-${options.shard.total}`;
  return join(root, "reports", `${short(baseSha, options.base)}-${short(headSha, options.head)}${shard}`);
}

/** The config names looked for when --config is not given, in this order. */
export const defaultConfigNames = ["scenarios.config.ts", "playwright.config.ts"] as const;

/**
 * How the checkout runs the installed bin: through its package manager (`pnpm prove-scenario`,
 * `yarn prove-scenario`) when the version it pins runs here, else `npx prove-scenario`.
 */
export function proverCommand(root: string, machine: MachineVersions = machineVersions): string {
  const run = resolvePackageManager(root, root, machine);
  return run === undefined ? proverBins.npm : proverBin(run.manager, run);
}

/** An argument as a shell reads it back: quoted when it holds anything but safe characters. */
export const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);

/** What a reproduce command repeats of a proof's options. */
export type ReproduceOptions = Pick<ProveOptions, "base" | "head" | "scenarios" | "repo" | "config" | "grep" | "repeat" | "expectTimeout">;

/** Where a command ran: its folder, the checkout's root, how the bin runs there, and the config it used (absolute). */
export interface CommandPlace {
  readonly cwd: string;
  readonly root: string;
  readonly prover: string;
  readonly configFile?: string | undefined;
}

/** A path as typed in `place.cwd`, relative to the checkout's root with forward slashes. */
export function fromRoot(place: Pick<CommandPlace, "cwd" | "root">, typed: string): string {
  const shown = relative(place.root, resolve(place.cwd, typed)).split(sep).join("/");
  return shown === "" ? "." : shown;
}

/**
 * The --config a command run from the checkout's root names: the one given, else the config used
 * when a run from the root would find another or none (a config in the app's folder of a monorepo).
 */
export function configArgument(config: string | undefined, place: CommandPlace): string | undefined {
  if (config !== undefined) return fromRoot(place, config);
  if (place.configFile === undefined) return undefined;
  const atRoot = defaultConfigNames.map((name) => join(place.root, name)).find((file) => existsSync(file));
  return atRoot === resolve(place.configFile) ? undefined : fromRoot(place, place.configFile);
}

/**
 * The command that reproduces the proof from the root of the invoking checkout, pinned to the
 * commits it compared, with paths relative to that root; --config when one was given or the root would not find it.
 */
export function reproduceCommand(
  options: ReproduceOptions,
  place: CommandPlace,
  resolved: { readonly base: string | undefined; readonly head: string | undefined; readonly repo: string | undefined },
): string {
  const path = (typed: string) => fromRoot(place, typed);
  const values = {
    ...options,
    base: resolved.base?.slice(0, 12) ?? options.base,
    head: resolved.head?.slice(0, 12) ?? options.head,
    repo: options.repo !== undefined && resolved.repo !== undefined ? path(resolved.repo) : undefined,
    config: configArgument(options.config, place),
  };
  return [place.prover, ...reproduceArguments(commands.prove, values, options.scenarios.map(path)).map(quote)].join(" ");
}
