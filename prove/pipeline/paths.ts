import { basename, isAbsolute, join, relative, resolve } from "node:path";
import type { ProveOptions } from "../cli/args.ts";

/** The scenario's name for folders: the file name without its test suffix, plus the test when --grep picked one. */
export function scenarioSlug(scenario: string, grep: string | undefined): string {
  const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const name = slug(basename(scenario).replace(/\.(e2e|spec|test)\.[cm]?[jt]sx?$|\.[cm]?[jt]sx?$/, "")) || "scenario";
  return grep === undefined || slug(grep) === "" ? name : `${name}--${slug(grep)}`;
}

/** Seven characters of a sha, or the ref made safe for a folder name when it did not resolve. */
const short = (sha: string | undefined, ref: string) => sha?.slice(0, 7) ?? (ref.replace(/[^A-Za-z0-9._-]+/g, "_") || "ref");

/** `reports/<scenario-slug>/<base7>-<head7>` under the invoking checkout. */
export function defaultOutDir(root: string, options: ProveOptions, baseSha: string | undefined, headSha: string | undefined): string {
  return join(root, "reports", scenarioSlug(options.scenario, options.grep), `${short(baseSha, options.base)}-${short(headSha, options.head)}`);
}

const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);

/** A path as typed from `cwd`: relative when it is inside `cwd`, else absolute. */
function fromCwd(cwd: string, path: string): string {
  const absolute = resolve(cwd, path);
  const inside = relative(cwd, absolute);
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? absolute : inside;
}

/** The command that reproduces the proof, pinned to the commits it compared. */
export function reproduceCommand(
  options: ProveOptions,
  cwd: string,
  resolved: { readonly base: string | undefined; readonly head: string | undefined; readonly repo: string | undefined },
): string {
  const args = ["--base", resolved.base?.slice(0, 12) ?? options.base, "--head", resolved.head?.slice(0, 12) ?? options.head, fromCwd(cwd, options.scenario)];
  if (options.repo !== undefined && resolved.repo !== undefined) args.push("--repo", resolved.repo);
  const config = fromCwd(cwd, options.config);
  if (config !== "playwright.config.ts") args.push("--config", config);
  if (options.grep !== undefined) args.push("--grep", options.grep);
  if (options.repeat > 1) args.push("--repeat", String(options.repeat));
  return ["pnpm prove-scenario", ...args.map(quote)].join(" ");
}
