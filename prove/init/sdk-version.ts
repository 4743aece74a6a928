import type { FoundSdk } from "./manifests.ts";

/** What init can tell of an SDK's version: one version, "the newest" (unpinned), or nothing. */
export type SdkVersion =
  | { readonly kind: "known"; readonly version: string; readonly from: string }
  | { readonly kind: "newest"; readonly from: string }
  | { readonly kind: "unknown"; readonly from: string };

/** A version's numbers, missing and wildcard parts as 0: "4.21" → [4, 21, 0]. */
const parts = (version: string) => version.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : 0));

/** Whether version `a` is `b` or later. */
export function atLeast(a: string, b: string): boolean {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}

/**
 * The lowest version an npm range or a Python requirement allows (`^4.52.0`, `>=1.3,<2`, `~=0.28`,
 * `4.x || 5`): the least of the versions after `=`, `^`, `~`, `>`, `>=` or none; undefined when
 * only upper bounds name one, or none is named.
 */
function lowest(spec: string): string | undefined {
  const versions = [...spec.matchAll(/(?<![\w.-])(===|==|~=|!=|>=|<=|>|<|=|\^|~)?\s*v?(\d+(?:\.(?:\d+|x|\*)){0,2})/g)].flatMap(
    ([, operator, version]) => (operator === undefined || !["<", "<=", "!="].includes(operator) ? [version ?? ""] : []),
  );
  return versions.reduce<string | undefined>(
    (least, version) => (least === undefined || atLeast(least, version) ? version : least),
    undefined,
  );
}

/**
 * The version of a found SDK: the one installed (`installed`, for a Node package in node_modules),
 * else the lowest its requirement allows; an unpinned one installs the newest.
 */
export function sdkVersion(found: FoundSdk, installed: string | undefined): SdkVersion {
  if (installed !== undefined) return { kind: "known", version: installed, from: `${installed} in node_modules` };
  const spec = found.spec.trim();
  const from = spec === "" ? `unpinned in ${found.file}` : `"${spec}" in ${found.file}`;
  if (["", "*", "x", "latest"].includes(spec)) return { kind: "newest", from };
  if (/^[a-z+]+:/i.test(spec) && !spec.startsWith("npm:")) return { kind: "unknown", from };
  const version = lowest(spec.replace(/^npm:(@?[^@]+)@/, ""));
  return version === undefined ? { kind: "unknown", from } : { kind: "known", version, from };
}
