import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** app.start names a program that is not installed; nothing to install, so the proof gets to boot at once. */
export default defineScenarioConfig({
  testDir: "../express",
  app: { root: ".", install: false, start: "definitely-not-a-command-xyz --port {port}", ready: { path: "/app/" } },
});
