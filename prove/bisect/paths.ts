import { join, relative, resolve, sep } from "node:path";
import type { BisectOptions } from "../cli/args.ts";
import { quote, scenarioFolder } from "../pipeline/paths.ts";

/** `reports/<scenario path>/bisect-<old7>-<new7>` under the invoking checkout; `scenario` is relative to it. */
export function defaultBisectDir(root: string, scenario: string, grep: string | undefined, oldSha: string, newSha: string): string {
  return join(root, "reports", scenarioFolder(scenario, grep), `bisect-${oldSha.slice(0, 7)}-${newSha.slice(0, 7)}`);
}

/**
 * The command that runs the bisection again from the root of the invoking checkout, pinned to the
 * two commits it searched between, with paths relative to that root; --config only when one was given.
 */
export function bisectCommand(
  options: Pick<BisectOptions, "scenario" | "repo" | "config" | "grep" | "repeat" | "expectTimeout">,
  place: { readonly cwd: string; readonly root: string; readonly prover: string },
  resolved: { readonly old: string; readonly new: string; readonly repo: string },
): string {
  const path = (typed: string) => {
    const shown = relative(place.root, resolve(place.cwd, typed)).split(sep).join("/");
    return shown === "" ? "." : shown;
  };
  const args = ["bisect", "--old", resolved.old.slice(0, 12), "--new", resolved.new.slice(0, 12), path(options.scenario)];
  if (options.repo !== undefined) args.push("--repo", path(resolved.repo));
  if (options.config !== undefined) args.push("--config", path(options.config));
  if (options.grep !== undefined) args.push("--grep", options.grep);
  if (options.repeat > 1) args.push("--repeat", String(options.repeat));
  if (options.expectTimeout !== undefined) args.push("--expect-timeout", String(options.expectTimeout));
  return [place.prover, ...args.map(quote)].join(" ");
}
