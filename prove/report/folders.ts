import { join } from "node:path";
import type { ProveOptions } from "../options/index.ts";

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/**
 * The scenario's folder in reports/: its path from the checkout without the test suffix (so two
 * scenarios of one name never share one), plus `--<test>` when --grep picked one test.
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
