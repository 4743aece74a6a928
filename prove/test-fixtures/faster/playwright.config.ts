import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** A page whose button does some work in the page's main thread, served by plain Node (nothing to install). */
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 3_000 },
  app: {
    root: ".",
    install: false,
    start: "node server.js",
    ready: { path: "/app/" },
  },
});
