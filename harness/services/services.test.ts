import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScenarioAppConfig } from "../config.ts";
import { postgresBinaries } from "./postgres-binaries.ts";
import { serviceCache } from "./postgres-template.ts";
import { serviceProcesses } from "./processes.ts";
import { serviceKinds } from "./registry.ts";
import { startServices } from "./start-services.ts";
import { servicesOf } from "./validate.ts";

const env = { PATH: process.env.PATH ?? "/usr/bin", LANG: "C.UTF-8" };
let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "services-test-"));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Runs SQL through psql at `url`, the connection string the app is handed, and gives its rows. */
async function sql(url: string, query: string): Promise<string> {
  const bin = await postgresBinaries({ name: "postgres", bin: undefined, root: base, env });
  return (await execa(join(bin.dir, "psql"), [url, "-XAtqc", query], { env })).stdout;
}

describe("postgres services", () => {
  it("starts two at once, each its own cluster with its own data, reached by its url; stop leaves no process", async () => {
    const app: ScenarioAppConfig = {
      start: "node server.js",
      services: { main: { kind: "postgres" }, other: { kind: "postgres", database: "shop", user: "shopper", password: "s3cret" } },
    };
    const kinds = serviceKinds(base);
    const services = await startServices({ services: servicesOf(app, Object.keys(kinds)), kinds, base, env });
    const { main, other } = services.values;
    if (main === undefined || other === undefined) throw new Error("a service has no values");
    expect(main).toEqual({
      url: `postgresql://postgres:postgres@127.0.0.1:${main.port}/app`,
      host: "127.0.0.1",
      port: main.port,
      user: "postgres",
      password: "postgres",
      database: "app",
    });
    expect(other.url).toBe(`postgresql://shopper:s3cret@127.0.0.1:${other.port}/shop`);
    expect(main.port).not.toBe(other.port);

    await sql(main.url ?? "", "CREATE TABLE chats (title text); INSERT INTO chats VALUES ('first chat')");
    expect(await sql(main.url ?? "", "SELECT title FROM chats")).toBe("first chat");
    expect(await sql(other.url ?? "", "SELECT count(*) FROM pg_tables WHERE tablename = 'chats'")).toBe("0");
    expect(services.logs()).toMatch(/^\[main\] .*database system is ready to accept connections$/m);

    const folders = [join(base, "services", "main"), join(base, "services", "other")];
    expect((await Promise.all(folders.map((folder) => serviceProcesses(undefined, folder)))).every((pids) => pids.length > 0)).toBe(true);
    await services.stop();
    expect(await Promise.all(folders.map((folder) => serviceProcesses(undefined, folder)))).toEqual([[], []]);
    // The template each was copied from is kept outside the test's folder, for the next test.
    expect(
      (await readdir(serviceCache())).filter((name) => name.startsWith("postgres-") && !name.includes(".making-")).length,
    ).toBeGreaterThan(0);
    expect(serviceCache().startsWith(base)).toBe(false);
  });

  it("stops the ones that started when another cannot, and says why that one could not", async () => {
    const app: ScenarioAppConfig = {
      start: "node server.js",
      services: {
        db: { kind: "postgres" },
        api: { kind: "command", command: "echo 'listening nowhere'; exit 3", ready: { log: "listening on" } },
      },
    };
    const kinds = serviceKinds(base);
    const failure = await startServices({ services: servicesOf(app, Object.keys(kinds)), kinds, base, env }).then(
      () => new Error("started"),
      (error: unknown) => error as Error,
    );
    expect(failure.message.split("\n")).toEqual([
      `[scenario-harness:boot] Service "api" (\`echo 'listening nowhere'; exit 3\`) exited with code 3 before it was ready. Check app.services.api in the scenario config. Its output:`,
      "listening nowhere",
    ]);
    expect(await serviceProcesses(undefined, join(base, "services", "db"))).toEqual([]);
  });
});

describe("app.services in the config", () => {
  const kinds = ["postgres", "command"];
  const refused = (services: unknown, start: unknown = "node server.js") => {
    try {
      servicesOf({ start, services } as ScenarioAppConfig, kinds);
    } catch (error) {
      return (error as Error).message;
    }
    return "accepted";
  };
  it.each([
    [{ db: { kind: "postgress" } }, `app.services.db.kind is "postgress": set it to one of "postgres", "command".`],
    [
      { db: { kind: "postgres", databse: "app" } },
      "app.services.db.databse is not a setting of a postgres service: remove it, or use one of database, user, password, bin.",
    ],
    [
      { replay: { kind: "postgres" } },
      `app.services.replay: "replay" is the name of the config's own {replay} placeholder: name the service otherwise, e.g. "replay-service".`,
    ],
    [
      { "my db": { kind: "postgres" } },
      `app.services.my db: "my db" is not a service name: name it with a letter, then letters, digits, _ or -, e.g. "postgres".`,
    ],
    [
      { db: { kind: "postgres", database: "app; drop" } },
      `app.services.db.database is "app; drop": set it to a name of letters, digits and _ (at most 63), e.g. "app".`,
    ],
    [
      { api: { kind: "command", command: "node api.js" } },
      `app.services.api.ready is undefined: set it to { path: "/health" } (a path answering once it is up) or { log: /ready/ } (a line it prints).`,
    ],
    [["postgres"], `app.services is ["postgres"]: set it to an object of services by name, e.g. { postgres: { kind: "postgres" } }.`],
  ])("refuses %j, naming the field and the fix", (services, message) => {
    expect(refused(services)).toBe(`[scenario-harness:config] ${message}`);
  });

  it("refuses a service named as a process of app.start", () => {
    expect(refused({ web: { kind: "postgres" } }, { web: "node server.js" })).toBe(
      `[scenario-harness:config] app.services.web: "web" names a process of app.start too, and {web.url} would mean either: rename one of them.`,
    );
  });
});
