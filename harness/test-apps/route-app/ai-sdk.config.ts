import { defineScenarioConfig } from "../../index.ts";

// The app calls its provider with the AI SDK's @ai-sdk/anthropic, given no base URL: no variable points it at the replay agent, the route does.
export default defineScenarioConfig({
  testDir: ".",
  use: { transcript: "anthropic.ndjson" },
  app: {
    root: "harness/test-apps/route-app",
    start: "ROUTE_VIA=ai-sdk node server.mjs",
    ready: { path: "/health" },
    route: true,
  },
});
