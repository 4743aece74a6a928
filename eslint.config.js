import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import { testHygiene } from "./lint/test-hygiene.js";

/** The import rule from lists of restricted patterns. */
const restricted = (...patterns) => ({ "no-restricted-imports": ["error", { patterns: patterns.flat() }] });

/** A folder may use another folder only through its public entry point, index.ts. */
const throughIndex = (...folders) =>
  folders.map((folder) => ({
    regex: `(^|/)${folder}/(?!index\\.ts$).+`,
    message: `Import ${folder}/ only through ${folder}/index.ts, its public entry point; export what you need there.`,
  }));

/** common/ is what harness/ and prove/ share, so it depends on neither. */
const independentOf = (...folders) =>
  folders.map((folder) => ({
    regex: `(^|/)${folder}/`,
    message: `common/ may not import ${folder}/: it is shared by the harness and the prover; move what it needs into common/.`,
  }));

/**
 * prove/'s layers, top down: the command line (cli.ts, index.ts, cli/), the commands, the engine;
 * every other folder (outcome, report, options, git, …) is below them. A file imports its own
 * layer or a lower one, never a higher one.
 */
const proveLayers = [["cli", "index"], ["commands"], ["engine", "bisect"]];
const allLayers = proveLayers.flat();
const tests = ["**/*.test.ts", "**/*.e2e.ts", "**/test-support.ts", "prove/e2e/**", "prove/test-fixtures/**"];

/** Imports of the layers above, written from a file whose path to prove/ is `prefix` ("../" in a folder, "./" at the top). */
const above = (layers, prefix, where) => ({
  regex: `^${prefix.replaceAll(".", "\\.")}(${layers.join("|")})(/|\\.ts$)`,
  message: `${where} may not import ${layers.map((layer) => `prove/${layer}`).join(", ")}: prove's layers run cli → commands → engine → the rest, never back up. Move what both need down a layer.`,
});

const layerRules = [
  ...proveLayers.slice(1).map((folders, index) => ({
    files: folders.map((folder) => `prove/${folder}/**/*.ts`),
    ignores: tests,
    rules: restricted(
      throughIndex("replay-agent", "harness"),
      above(proveLayers.slice(0, index + 1).flat(), "../", folders.map((f) => `prove/${f}`).join(", ")),
    ),
  })),
  {
    files: ["prove/*/**/*.ts"],
    ignores: [...tests, ...allLayers.map((folder) => `prove/${folder}/**`)],
    rules: restricted(throughIndex("replay-agent", "harness"), above(allLayers, "../", "this folder of prove/")),
  },
  {
    files: ["prove/*.ts"],
    ignores: ["prove/cli.ts", "prove/index.ts"],
    rules: restricted(throughIndex("replay-agent", "harness"), above(allLayers, "./", "this file of prove/")),
  },
];

export default tseslint.config(
  { ignores: ["**/node_modules/**", "reports/**", "test-results/**", "playwright-report/**", "dist/**", ".e2e-prover*/**"] },
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
  // The orders app's client component, which runs in the page.
  { files: ["prove/test-fixtures/orders/app/app/orders.js"], languageOptions: { globals: { ...globals.browser } } },
  { files: ["common/**/*.ts"], rules: restricted(independentOf("harness", "prove", "replay-agent")) },
  { files: ["harness/**/*.ts"], rules: restricted(throughIndex("replay-agent", "prove")) },
  { files: ["prove/**/*.ts"], rules: restricted(throughIndex("replay-agent", "harness")) },
  ...layerRules,
  { files: ["replay-agent/**/*.ts"], rules: restricted(throughIndex("harness", "prove")) },
  { files: ["scenarios/**/*.ts"], rules: restricted(throughIndex("harness", "replay-agent", "prove")) },
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
