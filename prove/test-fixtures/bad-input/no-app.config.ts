import { defineConfig } from "@playwright/test";

/** A plain Playwright config: no defineScenarioConfig, so no app for the prover to start. */
export default defineConfig({ testDir: "../express", testMatch: "**/*.e2e.ts" });
