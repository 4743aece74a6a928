import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** The Express sum app of prove/e2e/support/express-repo.ts, for scenarios that write down where their app ran. */
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 3_000 },
  app: {
    root: ".",
    start: "node server.js",
    ready: { path: "/app/" },
  },
});
