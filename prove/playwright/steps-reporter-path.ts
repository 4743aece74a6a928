import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "../package-root.ts";

/**
 * The steps reporter a proof's run adds beside the JSON one (harness/steps-reporter.ts): its source in a clone, where
 * the prover runs from its TypeScript and Playwright compiles the reporter; its bundle beside this one's in a build
 * (dist/lib/ of an installed package), whose bin/ and lib/ folders are siblings.
 */
export const stepsReporterPath = import.meta.url.endsWith(".ts")
  ? join(packageRoot, "harness", "steps-reporter.ts")
  : fileURLToPath(new URL("../lib/steps-reporter.js", import.meta.url));
