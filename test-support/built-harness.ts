/**
 * The harness as the package's build exports it (`scenario-prover/harness`, here `.e2e-prover/lib/harness.js`, which
 * the end-to-end tests' global setup builds), with the source's types: the configs and scenarios under
 * prove/test-fixtures/ import it, as a user's import the installed package's. A worker then loads the replay agent
 * (the fixtures' transcript-less tests serve an empty transcript) as a few bundled chunks instead of its TypeScript
 * modules one by one through Playwright's loader: about 1.1 CPU-s less a run, measured here. The source harness stays
 * proved end to end by the bundled app's scenarios (zoo.test.ts) and run by harness/harness.test.ts.
 */
import type * as Harness from "../harness/index.ts";
// @ts-expect-error: the build has no declarations; its exports are the source's, typed below.
import * as built from "../.e2e-prover/lib/harness.js";

const harness = built as typeof Harness;

export const { test, expect, defineScenarioConfig } = harness;
