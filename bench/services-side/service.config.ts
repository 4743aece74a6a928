import { defineScenarioConfig } from "../../harness/index.ts";
import bare from "./bare.config.ts";

/** The same side with a service of the kind BENCH_SERVICE_KIND names, started before the app and stopped after it (the app does not use it). */
export default defineScenarioConfig({
  testDir: ".",
  testMatch: "side.e2e.ts",
  reporter: "json",
  app: {
    ...bare.use?.scenarioApp,
    start: "node notes-api.mjs",
    ready: { path: "/" },
    root: "harness/test-apps/services-app",
    services: { store: { kind: (process.env.BENCH_SERVICE_KIND ?? "postgres") as "postgres" | "redis" | "mysql" } },
  },
});
