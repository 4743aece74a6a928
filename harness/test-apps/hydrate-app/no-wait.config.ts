import { defineScenarioConfig } from "../../index.ts";

// The same app without app.interactive: app.open() returns once the page has loaded.
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 5_000 },
  app: {
    root: "harness/test-apps/hydrate-app",
    start: "node server.mjs",
  },
});
