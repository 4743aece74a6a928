import { defineScenarioConfig } from "../../index.ts";

// app.open() waits for the page's own hydration signal.
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 5_000 },
  app: {
    root: "harness/test-apps/hydrate-app",
    start: "node server.mjs",
    interactive: "window.__hydrated === true",
  },
});
