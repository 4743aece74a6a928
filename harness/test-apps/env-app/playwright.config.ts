import { defineScenarioConfig } from "../../index.ts";

export default defineScenarioConfig({
  testDir: ".",
  app: {
    root: ".",
    start: "node server.mjs",
    ready: { path: "/health" },
    homeEnv: "ENV_APP_HOME",
    provider: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" },
  },
});
