import { mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installBuiltHarness } from "../../test-support/built-package.ts";
import type { ProofReport } from "../index.ts";
import { initScenarios } from "../init/init.ts";
import { makeOrdersRepo, type OrdersRepo } from "./support/orders-repo.ts";
import { checkout, processesMentioning, prover } from "./support/prover.ts";

/** The order scenario, as a user writes it beside the example init wrote. */
const scenario = await readFile(join(checkout, "prove/test-fixtures/orders/order.e2e.ts"), "utf8");

let work: string;
let repo: OrdersRepo;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-orders-"));
  repo = await makeOrdersRepo(work);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("a Next.js app with PostgreSQL through Drizzle, and a worker", () => {
  it("proves a fix whose migration changes a column with the config init wrote, unchanged: both sides at once and three runs each, every run on a PostgreSQL of its own migrated at its side's commit, and leaves no database running nor its data", async () => {
    // init reads the app as a user's repository holds it: Next.js and its API routes, Drizzle's config, the migrate script,
    // the worker script. Its own try of the install and the start is init.test.ts's; the proof below installs and starts them.
    const init = await initScenarios(repo.dir, { tryCommands: async () => ({ worked: [], failed: [] }) });
    expect(init.detected).toEqual(
      expect.arrayContaining([
        'framework: Next.js 16 (next "16.5.0" in package.json)',
        "start: npx next dev -p {port} (the dev script `next dev`, its tool run by npx from node_modules/.bin; next dev takes the port as -p)",
        expect.stringMatching(/^warm: \/api\/events, \/api\/orders \(app\/api\/events\/route\.js, app\/api\/orders\/route\.js; /),
        'services.postgres: postgres (dialect: "postgresql" in drizzle.config.js)',
        "prepare: npm run db:migrate (the db:migrate script `node migrate.js` runs the app's migrations)",
        "env: DATABASE_URL: {postgres.url} (dbCredentials reads DATABASE_URL in drizzle.config.js)",
        expect.stringMatching(/^start\.worker: npm run worker \(the worker script `node worker\.js`; ready when it logs /),
      ]),
    );
    // scenario-prover as an installed package exports it (this build's harness), beside the Playwright it imports.
    const modules = join(repo.dir, "node_modules");
    await installBuiltHarness(modules);
    await symlink(await realpath(join(checkout, "node_modules", "@playwright")), join(modules, "@playwright"));
    await writeFile(
      join(repo.dir, "scenarios", "order.e2e.ts"),
      scenario.replace('"../../../test-support/built-harness.ts"', '"scenario-prover/harness"'),
    );

    const out = join(work, "report");
    const proof = execa("node", [prover, "--base", "bug", "--head", "fix", "scenarios/order.e2e.ts", "--repeat", "3", "--out", out], {
      cwd: repo.dir,
      reject: false,
      stdin: "ignore",
    });
    const run = await proof;
    expect(run.exitCode, run.stderr).toBe(0);
    // Base installed as init's `install: "auto"` says, from the registry (next, react, drizzle-orm, pg, drizzle-kit), and head, whose
    // manifests are base's, hard-linked it: base's install wrote the lockfile the repository lacks, which is not head's cue.
    expect(run.stderr).toMatch(/^base {2}install {3}npm install {2}/m);
    expect(run.stderr).toMatch(/^head {2}install {3}base's, hard-linked \(the same dependency manifests\) {2}/m);
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as ProofReport;
    expect([report.verdict, report.reasonCode]).toEqual(["proved", "proved"]);
    // Base's column rounds to whole dollars; head's migration keeps the cents. Every run's order is the first its database saw.
    expect(report.base.attempts.map(({ outcome, error }) => [outcome, error?.kind, error?.location])).toEqual(
      Array.from({ length: 3 }, () => ["failed", "assertion", "scenarios/order.e2e.ts:13"]),
    );
    for (const { error } of report.base.attempts) expect(error?.message).toContain('Received: "Order 1: 3 × Notebook, done, $7"');
    expect(report.head.attempts.map(({ outcome }) => outcome)).toEqual(["passed", "passed", "passed"]);
    // Base's migrations made base's schema, which its worker read: the computed total is right, the column lost its cents.
    expect([report.base.serverLog, report.head.serverLog]).toEqual(["base/server.log", null]);
    const baseLog = await readFile(join(out, "base/server.log"), "utf8");
    expect(baseLog).toContain("▲ Next.js 16.5.0");
    expect(baseLog).toContain("migrated: schema 0000_create_orders");
    expect(baseLog).toContain("orders worker ready (schema 0000_create_orders)");
    expect(baseLog).toContain("priced order 1: 3 × Notebook = 7.47");

    // Nothing of the proof is left: no process (PostgreSQL's work in its data folder, under the run's folders) and no folder.
    const runFolders = `scenario-prover-${String(proof.pid)}.`;
    expect(await processesMentioning(runFolders)).toEqual([]);
    expect((await readdir(tmpdir())).filter((name) => name.startsWith(runFolders))).toEqual([]);
  });
});
