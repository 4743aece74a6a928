import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

// Throws while Playwright imports it, as a config that reads a variable nobody set does.
if (process.env.SUM_APP_SECRET === undefined) throw new Error("SUM_APP_SECRET is not set: export it before proving");

export default defineScenarioConfig({ testDir: "../express", app: { start: "node server.js", ready: { path: "/app/" } } });
