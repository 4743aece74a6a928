import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { ProveOptions } from "../options/index.ts";
import { machineVersions, proverBin, proverBins, resolvePackageManager, type MachineVersions } from "../install/package-manager.ts";
import { commands } from "../options/commands.ts";
import { reproduceArguments } from "../options/reproduce.ts";

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
export type ReproduceOptions = Pick<ProveOptions, "base" | "head" | "scenarios" | "repo" | "config" | "grep" | "repeat" | "expectTimeout"> &
  Partial<Pick<ProveOptions, "faster" | "notSlower" | "margin" | "maxSamples" | "cpuSlowdown">>;

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
