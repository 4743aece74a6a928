// Loads one of the package's bins: the TypeScript source through tsx in a clone of the project
// (where the source is), the bundle built at pack time in an installed package.
import { existsSync } from "node:fs";

/** Imports `source` (a .ts file from the package's root) when it is there, else the bundle `dist/bin/<bundle>`. */
export async function load(source, bundle) {
  const file = new URL(`../${source}`, import.meta.url);
  if (existsSync(file)) {
    const { register } = await import("tsx/esm/api");
    register();
    return import(file.href);
  }
  return import(new URL(`../dist/bin/${bundle}`, import.meta.url).href);
}
