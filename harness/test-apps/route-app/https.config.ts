import { defineScenarioConfig } from "../../index.ts";

// The app calls its provider with node:https at https://api.openai.com: no variable points it at the replay agent, the route does.
export default defineScenarioConfig({
  testDir: ".",
  use: { transcript: "openai.ndjson" },
  app: {
    root: "harness/test-apps/route-app",
    start: "ROUTE_VIA=https node server.mjs",
    ready: { path: "/health" },
    route: true,
  },
});
