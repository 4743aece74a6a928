import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProofReport } from "../index.ts";
import { makeOrdersRepo, type OrdersRepo } from "./support/orders-repo.ts";
import { processesMentioning, reportDir, startProver } from "./support/prover.ts";

const fixtures = "prove/test-fixtures/orders";

let work: string;
let repo: OrdersRepo;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-orders-"));
  repo = await makeOrdersRepo(work);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("an app with PostgreSQL and a worker", () => {
  it("proves a fix whose migration changes a column, both sides at once and three runs each, every run on a PostgreSQL of its own migrated at its side's commit, and leaves no database running nor its data", async () => {
    const out = join(work, "report");
    const proof = startProver([
      "--base",
      "bug",
      "--head",
      "fix",
      `${fixtures}/order.e2e.ts`,
      "--repo",
      repo.dir,
      "--config",
      `${fixtures}/playwright.config.ts`,
      "--repeat",
      "3",
      "--out",
      out,
    ]);
    const run = await proof;
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as ProofReport;
    expect([report.verdict, report.reasonCode]).toEqual(["proved", "proved"]);
    // Base's column rounds to whole dollars; head's migration keeps the cents. Every run's order is the first its database saw.
    expect(report.base.attempts.map(({ outcome, error }) => [outcome, error?.kind, error?.location])).toEqual(
      Array.from({ length: 3 }, () => ["failed", "assertion", `${fixtures}/order.e2e.ts:11`]),
    );
    for (const { error } of report.base.attempts) expect(error?.message).toContain('Received: "Order 1: 3 × Notebook, done, $7"');
    expect(report.head.attempts.map(({ outcome }) => outcome)).toEqual(["passed", "passed", "passed"]);
    // Base's migrations made base's schema, which its worker read: the computed total is right, the column lost its cents.
    expect([report.base.serverLog, report.head.serverLog]).toEqual(["base/server.log", null]);
    const baseLog = await readFile(join(reportDir(report), "base/server.log"), "utf8");
    expect(baseLog).toContain("migrated: schema 0000_create_orders");
    expect(baseLog).toContain("orders worker ready (schema 0000_create_orders)");
    expect(baseLog).toContain("priced order 1: 3 × Notebook = 7.47");

    // Nothing of the proof is left: no process (PostgreSQL's work in its data folder, under the run's folders) and no folder.
    const runFolders = `scenario-prover-${String(proof.pid)}.`;
    expect(await processesMentioning(runFolders)).toEqual([]);
    expect((await readdir(tmpdir())).filter((name) => name.startsWith(runFolders))).toEqual([]);
  });
});
