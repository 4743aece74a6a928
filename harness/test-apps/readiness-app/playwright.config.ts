import { defineScenarioConfig } from "../../index.ts";

export default defineScenarioConfig({
  testDir: ".",
  app: {
    root: "harness/test-apps/readiness-app",
    start: "node server.mjs",
    ready: { path: "/health" },
    homeEnv: "READINESS_APP_HOME",
  },
});
