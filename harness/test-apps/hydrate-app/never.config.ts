import { defineScenarioConfig } from "../../index.ts";

// An app.interactive that never becomes true: app.open() times out saying what it waited for.
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 1_000 },
  app: {
    root: "harness/test-apps/hydrate-app",
    start: "node server.mjs",
    interactive: "window.__hydrated === 'never'",
  },
});
