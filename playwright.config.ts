import { defineScenarioConfig } from "./harness/index.ts";

export default defineScenarioConfig({
  testDir: "scenarios",
  app: {
    root: "examples/agent-chat",
    install: "auto",
    start: "pnpm start",
    ready: { path: "/health" },
    cli: "pnpm cli",
    homeEnv: "AGENT_CHAT_HOME",
    provider: {
      OPENAI_BASE_URL: "{replay}/v1",
      OPENAI_API_KEY: "replay",
      ANTHROPIC_BASE_URL: "{replay}",
      ANTHROPIC_API_KEY: "replay",
      OLLAMA_HOST: "{replay}",
    },
  },
  // A proof's failing base waits one expect timeout out: 5 s there instead of the 10 s a direct run keeps.
  proof: { expectTimeout: 5_000 },
});
