import { defineScenarioConfig } from "../../index.ts";

// The test's own timeout is shorter than the app's first render (9 s, server.mjs): boot and that
// render are outside it. 8 s leaves a loaded machine room for the test's own work (a new context,
// the page's open, the check), which took more than 4 s in a CI run.
export default defineScenarioConfig({
  testDir: ".",
  timeout: 8_000,
  app: {
    root: "harness/test-apps/compile-app",
    start: "node server.mjs",
    ready: { path: "/" },
  },
});
