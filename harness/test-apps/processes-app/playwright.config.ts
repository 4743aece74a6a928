import { defineScenarioConfig } from "../../index.ts";

// Three processes: the front end the browser opens, the API its page fetches from, and a worker ready by its line.
export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 2_000 },
  app: {
    root: "harness/test-apps/processes-app",
    start: {
      web: "node web.mjs",
      api: { command: "node api.mjs", ready: { path: "/health" } },
      worker: { command: "node worker.mjs", ready: { log: "worker ready" } },
    },
    env: { API_URL: "{api.url}" },
    passEnv: ["PROCESSES_APP_PIDS"],
  },
});
