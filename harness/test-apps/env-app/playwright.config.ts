import { defineScenarioConfig } from "../../index.ts";

export default defineScenarioConfig({
  testDir: ".",
  app: {
    root: "harness/test-apps/env-app",
    // What npm and pnpm make of the app's environment, written before the server starts.
    start:
      'npm config get cache > "$ENV_APP_HOME/npm-cache.txt" 2>&1; pnpm store path > "$ENV_APP_HOME/pnpm-store.txt" 2>&1; node server.mjs',
    ready: { path: "/health" },
    homeEnv: "ENV_APP_HOME",
    provider: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" },
  },
});
