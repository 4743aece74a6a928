import { defineScenarioConfig } from "../../index.ts";

// The same app, its API failing at boot once the front end is up; the worker names no ready check and prints nothing.
export default defineScenarioConfig({
  testDir: ".",
  app: {
    root: "harness/test-apps/processes-app",
    start: {
      web: "node web.mjs",
      api: { command: "node api.mjs --fail-once-web-is-up {web.port}", ready: { path: "/health" } },
      worker: "node worker.mjs --quiet",
    },
    env: { API_URL: "{api.url}" },
    passEnv: ["PROCESSES_APP_PIDS"],
  },
});
