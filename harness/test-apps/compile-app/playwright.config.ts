import { defineScenarioConfig } from "../../index.ts";

// The test's own timeout is shorter than the app's first render: boot and that render are outside it.
export default defineScenarioConfig({
  testDir: ".",
  timeout: 4_000,
  app: {
    root: "harness/test-apps/compile-app",
    start: "node server.mjs",
    ready: { path: "/" },
  },
});
