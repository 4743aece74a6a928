import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** A placeholder where a variable's name belongs: {port} is filled into values only. */
export default defineScenarioConfig({
  testDir: "../express",
  app: { root: ".", install: false, start: "node server.js", ready: { path: "/app/" }, env: { "{port}": "x" } },
});
