import { join } from "node:path";
import { packageRoot } from "../package-root.ts";

/**
 * The steps reporter a proof's run adds beside the JSON one (harness/steps-reporter.ts): its source in a clone, where
 * the prover runs from its TypeScript and Playwright compiles the reporter, its bundle in an installed package.
 */
export const stepsReporterPath = import.meta.url.endsWith(".ts")
  ? join(packageRoot, "harness", "steps-reporter.ts")
  : join(packageRoot, "dist", "lib", "steps-reporter.js");
