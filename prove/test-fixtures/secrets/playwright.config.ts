import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** The Express sum app of prove/e2e/support/express-repo.ts, made to print credential-shaped strings: see prove/e2e/secrets.test.ts. */
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 3_000 },
  app: {
    root: ".",
    start: "node server.js",
    ready: { path: "/app/" },
  },
});
