import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { ProveOptions } from "../cli/args.ts";

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");

/**
 * The scenario's folder in reports/: its path from the checkout without the test suffix, one
 * folder per segment (two scenarios of one name in different folders never share one), plus
 * `--<test>` when --grep picked one test.
 */
export function scenarioFolder(scenario: string, grep: string | undefined): string {
  const segments = scenario.replace(/\.(e2e|spec|test)\.[cm]?[jt]sx?$|\.[cm]?[jt]sx?$/, "").split(/[\\/]+/).map(slug).filter((part) => part !== "");
  const path = segments.length === 0 ? "scenario" : segments.join("/");
  return grep === undefined || slug(grep) === "" ? path : `${path}--${slug(grep)}`;
}

/** Seven characters of a sha, or the ref made safe for a folder name when it did not resolve. */
const short = (sha: string | undefined, ref: string) => sha?.slice(0, 7) ?? (ref.replace(/[^A-Za-z0-9._-]+/g, "_") || "ref");

/** `reports/<scenario path>/<base7>-<head7>` under the invoking checkout; `scenario` is relative to it. */
export function defaultOutDir(root: string, scenario: string, options: Pick<ProveOptions, "base" | "head" | "grep">, baseSha: string | undefined, headSha: string | undefined): string {
  return join(root, "reports", scenarioFolder(scenario, options.grep), `${short(baseSha, options.base)}-${short(headSha, options.head)}`);
}

/** `reports/<base7>-<head7>` (and `-shard-<i>-of-<n>` for a shard) under the invoking checkout: a proof of several scenarios. */
export function defaultManyOutDir(root: string, options: ProveOptions, baseSha: string | undefined, headSha: string | undefined): string {
  const shard = options.shard === undefined ? "" : `-shard-${options.shard.index}-of-${options.shard.total}`;
  return join(root, "reports", `${short(baseSha, options.base)}-${short(headSha, options.head)}${shard}`);
}

/** How the checkout runs the installed bin, from its lockfile: `pnpm prove-scenario`, `yarn prove-scenario`, else `npx prove-scenario`. */
export function proverCommand(root: string): string {
  if (existsSync(join(root, "pnpm-lock.yaml"))) return "pnpm prove-scenario";
  if (existsSync(join(root, "yarn.lock"))) return "yarn prove-scenario";
  return "npx prove-scenario";
}

/** An argument as a shell reads it back: quoted when it holds anything but safe characters. */
export const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);

/** What a reproduce command repeats of a proof's options. */
export type ReproduceOptions = Pick<ProveOptions, "base" | "head" | "scenarios" | "repo" | "config" | "grep" | "repeat" | "expectTimeout">;

/**
 * The command that reproduces the proof from the root of the invoking checkout, pinned to the
 * commits it compared, with paths relative to that root; --config only when one was given.
 */
export function reproduceCommand(
  options: ReproduceOptions,
  place: { readonly cwd: string; readonly root: string; readonly prover: string },
  resolved: { readonly base: string | undefined; readonly head: string | undefined; readonly repo: string | undefined },
): string {
  const path = (typed: string) => {
    const shown = relative(place.root, resolve(place.cwd, typed)).split(sep).join("/");
    return shown === "" ? "." : shown;
  };
  const args = ["--base", resolved.base?.slice(0, 12) ?? options.base, "--head", resolved.head?.slice(0, 12) ?? options.head, ...options.scenarios.map(path)];
  if (options.repo !== undefined && resolved.repo !== undefined) args.push("--repo", path(resolved.repo));
  if (options.config !== undefined) args.push("--config", path(options.config));
  if (options.grep !== undefined) args.push("--grep", options.grep);
  if (options.repeat > 1) args.push("--repeat", String(options.repeat));
  if (options.expectTimeout !== undefined) args.push("--expect-timeout", String(options.expectTimeout));
  return [place.prover, ...args.map(quote)].join(" ");
}
