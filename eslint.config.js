import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import { testHygiene } from "./lint/test-hygiene.js";

/** A folder may use another folder only through its public entry point, index.ts. */
function onlyThroughIndex(...folders) {
  return {
    "no-restricted-imports": [
      "error",
      {
        patterns: folders.map((folder) => ({
          regex: `(^|/)${folder}/(?!index\\.ts$).+`,
          message: `Import ${folder}/ only through ${folder}/index.ts, its public entry point; export what you need there.`,
        })),
      },
    ],
  };
}

/** A folder that may use none of these folders: common/ is what harness/ and prove/ share, so it depends on neither. */
function independentOf(...folders) {
  return {
    "no-restricted-imports": [
      "error",
      {
        patterns: folders.map((folder) => ({
          regex: `(^|/)${folder}/`,
          message: `common/ may not import ${folder}/: it is shared by the harness and the prover; move what it needs into common/.`,
        })),
      },
    ],
  };
}

export default tseslint.config(
  { ignores: ["**/node_modules/**", "reports/**", "test-results/**", "playwright-report/**", "dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  { files: ["examples/agent-chat/public/**/*.js"], languageOptions: { globals: { ...globals.browser } } },
  { files: ["common/**/*.ts"], rules: independentOf("harness", "prove", "replay-agent") },
  { files: ["harness/**/*.ts"], rules: onlyThroughIndex("replay-agent", "prove") },
  { files: ["prove/**/*.ts"], rules: onlyThroughIndex("replay-agent", "harness") },
  { files: ["replay-agent/**/*.ts"], rules: onlyThroughIndex("harness", "prove") },
  { files: ["scenarios/**/*.ts"], rules: onlyThroughIndex("harness", "replay-agent", "prove") },
  {
    files: ["**/*.test.ts", "**/*.e2e.ts", "**/*.spec.ts"],
    plugins: { "test-hygiene": testHygiene },
    rules: {
      "test-hygiene/no-wall-clock": "error",
      "test-hygiene/no-real-time-wait": "error",
      "test-hygiene/no-test-timeout-or-retries": "error",
      "test-hygiene/no-unreasoned-skip": "error",
    },
  },
);
