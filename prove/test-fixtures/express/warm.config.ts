import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** The Express sum app with its API asked for before each test: its compile-* commits compile it on the first request. */
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 3_000 },
  app: {
    root: ".",
    start: "node server.js",
    ready: { path: "/app/", warm: ["/app/api/sum"] },
  },
});
