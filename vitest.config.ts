import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "reports/**", "test-results/**", "dist/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
