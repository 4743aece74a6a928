import { defineScenarioConfig } from "../../index.ts";

// The same app opened at the default host, 127.0.0.1, which its dev resources refuse.
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 2_000 },
  app: {
    root: "harness/test-apps/origin-app",
    start: "node server.mjs",
  },
});
