import { defineScenarioConfig } from "../../index.ts";

// An app.interactive that never becomes true: app.open() times out saying what it waited for.
export default defineScenarioConfig({
  testDir: ".",
  app: {
    root: "harness/test-apps/hydrate-app",
    start: "node server.mjs",
    ready: { path: "/", timeout: 3_000 },
    interactive: "window.__hydrated === 'never'",
  },
});
