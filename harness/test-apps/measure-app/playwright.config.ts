import { defineScenarioConfig } from "../../index.ts";

export default defineScenarioConfig({
  testDir: ".",
  app: {
    root: "harness/test-apps/measure-app",
    start: "node server.mjs",
    ready: { path: "/" },
  },
});
