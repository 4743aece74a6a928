import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "reports/**", "test-results/**", "dist/**", ".e2e-prover*/**"],
    // An end-to-end proof of several zoo scenarios runs six Playwright runs on two cores: minutes, not seconds.
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
