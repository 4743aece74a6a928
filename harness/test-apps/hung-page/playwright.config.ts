import { defineScenarioConfig } from "../../index.ts";

/** A page whose script hangs once loaded; the test waits on it until the run is interrupted (harness/harness.test.ts). */
export default defineScenarioConfig({
  testDir: ".",
  // Playwright's own failure screenshot of a hung page waits out its timeout: not what this app is for.
  use: { screenshot: "off" },
  app: {
    root: "harness/test-apps/hung-page",
    start: "node server.mjs",
    ready: { path: "/health" },
    passEnv: ["HUNG_PAGE_SERVED"],
  },
});
