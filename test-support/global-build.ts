import { builtProver } from "./built-package.ts";

/**
 * Before any test file starts (vitest runs every project's global setup first): the package's
 * build, whose bins the tests start, made once here instead of by several files starting at once.
 */
export default async function setup(): Promise<void> {
  await builtProver();
}
