import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** The express fixtures' config with nothing to install: rows that fail before the app needs its dependencies stay fast. */
export default defineScenarioConfig({
  testDir: "../express",
  app: { root: ".", install: false, start: "node server.js", ready: { path: "/app/" } },
});
