import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** A plain Express app in a repository that knows nothing of scenario-prover: no replay agent, served under /app/. */
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 3_000 },
  app: {
    root: ".",
    start: "node server.js",
    ready: { path: "/app/" },
  },
});
