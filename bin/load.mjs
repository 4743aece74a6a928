// Loads one of the package's entry points: the TypeScript source through tsx in a clone of the
// project (where the source is), the JavaScript built at pack time in an installed package.
import { existsSync } from "node:fs";

/** Imports `<folder>/<file>.ts` from the source when it is there, else `dist/<folder>/<file>.js`. */
export async function load(folder, file) {
  const source = new URL(`../${folder}/${file}.ts`, import.meta.url);
  if (existsSync(source)) {
    const { register } = await import("tsx/esm/api");
    register();
    return import(source.href);
  }
  return import(new URL(`../dist/${folder}/${file}.js`, import.meta.url).href);
}
