import { defineScenarioConfig } from "../../index.ts";

// The app's dev resources answer a page opened at localhost only, so the browser opens it there.
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 2_000 },
  app: {
    root: "harness/test-apps/origin-app",
    start: "node server.mjs",
    host: "localhost",
  },
});
