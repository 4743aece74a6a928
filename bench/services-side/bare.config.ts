import { defineScenarioConfig } from "../../harness/index.ts";

/** A side with no service: the services app's notes API as the app, opened once. */
export default defineScenarioConfig({
  testDir: ".",
  testMatch: "side.e2e.ts",
  reporter: "json",
  app: { root: "harness/test-apps/services-app", start: "node notes-api.mjs", ready: { path: "/" } },
});
