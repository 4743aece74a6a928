import { resolve } from "node:path";
import { defineScenarioConfig } from "../../../test-support/built-harness.ts";

/** This checkout's node_modules: they hold the orders app's drizzle-orm and pg (devDependencies here), linked into each worktree, not installed. */
const modules = resolve(import.meta.dirname, "../../../node_modules");

/** The orders app (its repository: prove/e2e/support/orders-repo.ts): a web server and a worker sharing PostgreSQL through Drizzle. */
export default defineScenarioConfig({
  testDir: ".",
  // The order goes to the worker and back through two notifications and the page's event stream: room for a loaded machine.
  expect: { timeout: 5_000 },
  app: {
    install: `ln -s ${modules} node_modules`,
    services: { postgres: { kind: "postgres" } },
    prepare: "npm run db:migrate",
    start: {
      web: "node server.js",
      worker: { command: "node worker.js", ready: { log: "orders worker ready" } },
    },
    ready: { path: "/" },
    env: { DATABASE_URL: "{postgres.url}" },
  },
});
