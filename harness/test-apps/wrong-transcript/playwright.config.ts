import { defineScenarioConfig } from "../../index.ts";

export default defineScenarioConfig({
  testDir: ".",
  app: {
    root: "examples/agent-chat",
    start: "pnpm start",
    ready: { path: "/health" },
    cli: "pnpm cli",
    homeEnv: "AGENT_CHAT_HOME",
    provider: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" },
  },
});
