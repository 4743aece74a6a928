import { defineScenarioConfig } from "../../index.ts";

// late-request's app, which asks the provider the question typed into its page, with plain fetch.
export default defineScenarioConfig({
  testDir: ".",
  app: {
    root: "harness/test-apps/late-request",
    start: "node server.mjs",
    ready: { path: "/health" },
    provider: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" },
  },
});
