import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** An app whose page is in a git submodule: the prover checks submodules out when SUBMODULES is "true". */
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 3_000 },
  app: {
    root: ".",
    install: false,
    submodules: process.env.SUBMODULES === "true",
    start: "node server.mjs",
    ready: { path: "/" },
  },
});
