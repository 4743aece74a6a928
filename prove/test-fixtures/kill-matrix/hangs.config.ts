import { tmpdir } from "node:os";
import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** The kill-matrix app with a scenario that never ends: Playwright's test timeout ends it. */
const markers = process.env.KILL_MATRIX_DIR ?? tmpdir();

export default defineScenarioConfig({
  testDir: ".",
  testMatch: "hangs.e2e.ts",
  timeout: 8_000,
  app: {
    root: ".",
    install: false,
    start: `node server.mjs - ${markers}`,
    ready: { path: "/" },
  },
});
