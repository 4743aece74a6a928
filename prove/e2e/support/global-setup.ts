import { fillNpmCache } from "./express-repo.ts";

/** The fill already made or under way in this vitest process: keyed on the process, as each project that lists this file loads it anew. */
const filled = Symbol.for("scenario-prover.e2e.npm-cache-filled");
const shared = globalThis as typeof globalThis & { [filled]?: Promise<void> };

/**
 * Before the end-to-end test files start, beside each other: what several of them install from,
 * fetched once, however many of the projects that list this setup run.
 */
export default async function setup(): Promise<void> {
  shared[filled] ??= fillNpmCache();
  await shared[filled];
}
