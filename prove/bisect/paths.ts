import { join } from "node:path";
import { commands } from "../options/commands.ts";
import { reproduceArguments } from "../options/reproduce.ts";
import type { BisectOptions } from "../options/types.ts";
import { configArgument, fromRoot, quote, type CommandPlace } from "../engine/paths.ts";
import { scenarioFolder } from "../report/folders.ts";

/** `reports/<scenario path>/bisect-<old7>-<new7>` under the invoking checkout; `scenario` is relative to it. */
export function defaultBisectDir(root: string, scenario: string, grep: string | undefined, oldSha: string, newSha: string): string {
  return join(root, "reports", scenarioFolder(scenario, grep), `bisect-${oldSha.slice(0, 7)}-${newSha.slice(0, 7)}`);
}

/**
 * The command that runs the bisection again from the root of the invoking checkout, pinned to the
 * two commits it searched between, with paths relative to that root; --config when one was given or the root would not find it.
 */
export function bisectCommand(
  options: Pick<BisectOptions, "scenario" | "repo" | "config" | "grep" | "repeat" | "expectTimeout">,
  place: CommandPlace,
  resolved: { readonly old: string; readonly new: string; readonly repo: string },
): string {
  const path = (typed: string) => fromRoot(place, typed);
  const values = {
    ...options,
    old: resolved.old.slice(0, 12),
    new: resolved.new.slice(0, 12),
    repo: options.repo === undefined ? undefined : path(resolved.repo),
    config: configArgument(options.config, place),
  };
  return [place.prover, ...reproduceArguments(commands.bisect, values, [path(options.scenario)]).map(quote)].join(" ");
}
