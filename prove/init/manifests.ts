import { providerSdks, type ProviderSdk } from "./provider-sdks.ts";

/** A provider SDK an app's manifest lists. */
export interface FoundSdk {
  readonly sdk: ProviderSdk;
  /** The file that lists it: package.json, requirements.txt or pyproject.toml. */
  readonly file: string;
  /** Its version requirement as written; "" when it has none. */
  readonly spec: string;
}

/** The Python manifests init reads, in the order their packages count. */
export const pythonManifests = ["requirements.txt", "pyproject.toml"] as const;

/** A Python distribution's name as pip compares names (PEP 503): lower case, runs of -, _ and . as one -. */
const normalized = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

/** A PEP 508 requirement's name and version part (extras and markers left out); undefined when `text` is not one. */
function requirement(text: string): { readonly name: string; readonly spec: string } | undefined {
  const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;]*?)\s*(?:;.*)?$/.exec(text);
  if (match === null) return undefined;
  const [, name = "", spec = ""] = match;
  return spec === "" || /^[<>=!~^(*]|^\d/.test(spec) ? { name: normalized(name), spec: spec.replace(/^\(|\)$/g, "") } : undefined;
}

/** The requirements of a requirements.txt: one a line, without comments and pip's options (-r, -e, --index-url). */
function requirementsTxt(text: string): ReadonlyArray<{ readonly name: string; readonly spec: string }> {
  return text.split(/\r?\n/).flatMap((line) => {
    const bare = line.replace(/(^|\s)#.*$/, "").trim();
    if (bare === "" || bare.startsWith("-")) return [];
    return requirement(bare) ?? [];
  });
}

/** Whether the array under `key` in `table` lists requirements: [project]'s dependencies, optional ones, groups, uv's dev-dependencies. */
const listsRequirements = (table: string, key: string) =>
  (table === "project" && key === "dependencies") ||
  /dependencies$/.test(table) ||
  table === "dependency-groups" ||
  /dependencies$/.test(key);

/**
 * The requirements of a pyproject.toml: the quoted PEP 508 strings of the arrays that list them
 * (see listsRequirements), and the keys of Poetry's tables whose name ends in "dependencies"
 * (`openai = "^1.3"`, `openai = { version = "^1.3" }`).
 */
function pyprojectToml(text: string): ReadonlyArray<{ readonly name: string; readonly spec: string }> {
  const found: Array<{ readonly name: string; readonly spec: string }> = [];
  const quoted = (values: string) => {
    for (const match of values.matchAll(/"([^"]*)"|'([^']*)'/g)) {
      const parsed = requirement(match[1] ?? match[2] ?? "");
      if (parsed !== undefined) found.push(parsed);
    }
  };
  let table = "";
  let array: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const bare = line.replace(/#[^"']*$/, "");
    if (array !== undefined) {
      array += bare;
      if (!bare.includes("]")) continue;
      quoted(array);
      array = undefined;
      continue;
    }
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*$/.exec(bare);
    if (header !== null) {
      table = header[1] ?? "";
      continue;
    }
    const [, key = "", value = ""] = /^\s*"?([A-Za-z0-9][A-Za-z0-9._-]*)"?\s*=\s*(.*)$/.exec(bare) ?? [];
    if (key === "") continue;
    if (value.startsWith("[") && listsRequirements(table, key)) {
      if (value.includes("]")) quoted(value);
      else array = value;
    } else if (/dependencies$/.test(table) && table !== "project.optional-dependencies" && key !== "python") {
      const spec = /^["']([^"']*)["']/.exec(value)?.[1] ?? /\bversion\s*=\s*["']([^"']*)["']/.exec(value)?.[1] ?? "";
      found.push({ name: normalized(key), spec });
    }
  }
  return found;
}

/** The entries of a package.json field holding dependencies, in the file's order. */
function dependencies(packageJson: Readonly<Record<string, unknown>>, field: string): ReadonlyArray<readonly [string, string]> {
  const deps = packageJson[field];
  if (typeof deps !== "object" || deps === null) return [];
  return Object.entries(deps).map(([name, spec]) => [name, typeof spec === "string" ? spec : ""] as const);
}

/**
 * The provider SDKs the app lists, in the order they count: package.json's dependencies, then its
 * devDependencies, then requirements.txt and pyproject.toml (read with `read`, relative to the app's
 * folder).
 */
export function findProviderSdks(
  packageJson: Readonly<Record<string, unknown>>,
  read: (file: string) => string | undefined,
): ReadonlyArray<FoundSdk> {
  const node = ["dependencies", "devDependencies"].flatMap((field) =>
    dependencies(packageJson, field).flatMap(([name, spec]): FoundSdk[] => {
      const sdk = providerSdks.find((candidate) => candidate.ecosystem === "node" && candidate.name === name);
      return sdk === undefined ? [] : [{ sdk, file: "package.json", spec }];
    }),
  );
  const python = pythonManifests.flatMap((file) => {
    const text = read(file);
    if (text === undefined) return [];
    return (file === "requirements.txt" ? requirementsTxt(text) : pyprojectToml(text)).flatMap(({ name, spec }): FoundSdk[] => {
      const sdk = providerSdks.find((candidate) => candidate.ecosystem === "python" && candidate.name === name);
      return sdk === undefined ? [] : [{ sdk, file, spec }];
    });
  });
  return [...node, ...python].filter((found, index, all) => all.findIndex((other) => other.sdk === found.sdk) === index);
}
