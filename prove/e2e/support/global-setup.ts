import { fillNpmCache } from "./express-repo.ts";

/** Before the end-to-end test files start, beside each other: what several of them install from, fetched once. */
export default async function setup(): Promise<void> {
  await fillNpmCache();
}
