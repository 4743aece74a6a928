import { defineScenarioConfig } from "../../index.ts";

// The app calls its provider with Python's urllib.request at https://api.anthropic.com: no variable points it at the replay agent, the route does.
export default defineScenarioConfig({
  testDir: ".",
  use: { transcript: "anthropic.ndjson" },
  app: {
    root: "harness/test-apps/route-app",
    start: "python3 server.py",
    ready: { path: "/health" },
    route: true,
  },
});
