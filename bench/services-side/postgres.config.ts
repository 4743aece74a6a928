import { defineScenarioConfig } from "../../harness/index.ts";
import bare from "./bare.config.ts";

/** The same side with a PostgreSQL service started before the app and stopped after it. */
export default defineScenarioConfig({
  testDir: ".",
  testMatch: "side.e2e.ts",
  reporter: "json",
  app: {
    root: "harness/test-apps/services-app",
    start: "node notes-api.mjs",
    ready: { path: "/" },
    ...bare.use?.scenarioApp,
    services: { db: { kind: "postgres" } },
    env: { DATABASE_URL: "{db.url}" },
  },
});
