import { defineScenarioConfig } from "../../index.ts";

export default defineScenarioConfig({
  testDir: ".",
  testMatch: "services.e2e.ts",
  app: {
    root: "harness/test-apps/services-app",
    services: {
      db: { kind: "postgres" },
      notes: { kind: "command", command: "node notes-api.mjs", ready: { log: "notes api up" } },
    },
    prepare: ['psql "$DATABASE_URL" -Xq -v ON_ERROR_STOP=1 -f schema.sql', "psql {db.url} -Xq -v ON_ERROR_STOP=1 -f seed.sql"],
    start: "node server.mjs",
    ready: { path: "/health" },
    env: { DATABASE_URL: "{db.url}", NOTES_URL: "{notes.url}" },
  },
});
