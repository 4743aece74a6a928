import { defineScenarioConfig } from "../../../harness/index.ts";

/** The express fixtures' config with nothing to install: rows that fail before the app needs its dependencies stay fast. */
export default defineScenarioConfig({
  testDir: "../express",
  app: { root: ".", install: false, start: "node server.js", ready: { path: "/app/" } },
});
