import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningService } from "./kind.ts";
import { markedPids, testContext } from "./kinds-test-support.ts";
import { mysqlKind, mysqlKindAt } from "./mysql.ts";

let base = "";
let templates = "";
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "mysql-kind-"));
  // No template yet: the first test's two starts at once each make one, and one of them is kept.
  templates = join(base, "templates");
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The mariadb client, as the app's own would connect, with the service's values. */
const sql = async ({ values }: RunningService, statements: string) =>
  (
    await execa("mariadb", [
      "--no-defaults",
      `--host=${values.host}`,
      `--port=${values.port}`,
      `--user=${values.user}`,
      `--password=${values.password}`,
      "--batch",
      "--skip-column-names",
      values.database ?? "",
      "-e",
      statements,
    ])
  ).stdout;

const makingTemplate = /making the template data folder/;

describe("a mysql service", () => {
  it("starts two at once from no template, which is made whole once, each with its own data; stopped, no process is left and its folder goes", async () => {
    const [one, two] = await Promise.all([testContext("db", base), testContext("analytics", base)]);
    const mysql = mysqlKindAt(templates);
    const [first, second] = await Promise.all([mysql.start({ kind: "mysql" }, one.context), mysql.start({ kind: "mysql" }, two.context)]);
    const port = String(one.context.port);
    expect(first.values).toEqual({
      url: `mysql://app:app@127.0.0.1:${port}/app`,
      host: "127.0.0.1",
      port,
      user: "app",
      password: "app",
      database: "app",
    });
    expect(second.values.url).toBe(`mysql://app:app@127.0.0.1:${two.context.port}/app`);
    // Started at once, both usually make it (an install takes seconds), neither seeing the other's half-made one: one is
    // renamed into place, the other removed with its setup files. One template is kept either way.
    expect([one.log(), two.log()].some((log) => makingTemplate.test(log))).toBe(true);
    expect(await readdir(templates)).toEqual([expect.stringMatching(/^mysql-[0-9a-f]{16}$/)]);

    await sql(first, "CREATE TABLE chats (title TEXT); INSERT INTO chats VALUES ('first')");
    await sql(second, "CREATE TABLE chats (title TEXT); INSERT INTO chats VALUES ('second')");
    expect(await sql(first, "SELECT title FROM chats")).toBe("first");
    expect(await sql(second, "SELECT title FROM chats")).toBe("second");
    // Its own server, reading no config file of the machine's: the loopback only, Debian's character set, its socket in its folder.
    expect(await sql(first, "SELECT @@bind_address, @@character_set_server, @@socket, @@datadir, @@tmpdir")).toBe(
      `127.0.0.1\tutf8mb4\tmysqld.sock\t${one.context.dataDir}/data/\t${one.context.dataDir}/tmp`,
    );
    expect(await markedPids(one.marker)).toHaveLength(1);

    await Promise.all([first.stop(), second.stop()]);
    expect([...(await markedPids(one.marker)), ...(await markedPids(two.marker))]).toEqual([]);
    await rm(one.context.dataDir, { recursive: true });
    await rm(two.context.dataDir, { recursive: true });
    await Promise.all([one.release(), two.release()]);
  });

  it("a later start copies the template, fresh; database, user and password are the config's", async () => {
    const [later, named] = await Promise.all([testContext("db-later", base), testContext("db-named", base)]);
    const [again, own] = await Promise.all([
      mysqlKindAt(templates).start({ kind: "mysql" }, later.context),
      // The user's cache folder, as a run keeps it: made by the first run on this machine, copied by the next.
      mysqlKind.start({ kind: "mysql", database: "stats", user: "reader", password: "s3cret:/@" }, named.context),
    ]);
    expect(later.log()).not.toMatch(makingTemplate);
    expect(await sql(again, "SHOW TABLES")).toBe("");
    expect(own.values.url).toBe(`mysql://reader:s3cret%3A%2F%40@127.0.0.1:${named.context.port}/stats`);
    expect(await sql(own, "SELECT DATABASE(), CURRENT_USER()")).toBe("stats\treader@%");
    await Promise.all([again.stop(), own.stop()]);
    await Promise.all([later.release(), named.release()]);
  });

  it("not found is a config error naming bin, SCENARIO_MYSQL_BIN and Debian's package", async () => {
    const empty = await mkdtemp(join(base, "bin-"));
    const { context, release } = await testContext("db-nowhere", base);
    await expect(mysqlKindAt(templates).start({ kind: "mysql", bin: empty }, context)).rejects.toThrow(
      `[scenario-harness:config] app.services.db-nowhere (mysql): no mariadbd or mysqld in ${empty} (its bin). ` +
        "Set the service's bin or SCENARIO_MYSQL_BIN to the folder holding mariadbd, or install MariaDB (Debian, Ubuntu: apt-get install mariadb-server).",
    );
    await release();
  });
});
