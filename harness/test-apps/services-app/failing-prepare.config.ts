import { defineScenarioConfig } from "../../index.ts";
import app from "./playwright.config.ts";

/** The services app whose migration fails: its seed runs before its schema. */
export default defineScenarioConfig({
  testDir: ".",
  testMatch: "services.e2e.ts",
  app: {
    ...app.use?.scenarioApp,
    root: "harness/test-apps/services-app",
    start: "node server.mjs",
    prepare: "psql {db.url} -Xq -v ON_ERROR_STOP=1 -f seed.sql",
  },
});
