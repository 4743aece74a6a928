import { defineScenarioConfig } from "../../index.ts";

export default defineScenarioConfig({
  testDir: ".",
  app: {
    root: "harness/test-apps/stdio-app",
    start: "node server.mjs",
    ready: { path: "/health" },
    provider: { STDIO_APP_AGENT: "{replayCommand}" },
  },
});
