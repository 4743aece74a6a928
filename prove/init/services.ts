import { findCompose, findDrizzle, findEnvExample, findPrisma, type OrmFound, type StoreFound, type StoreKind } from "./data-sources.ts";
import type { AppFiles } from "./detect.ts";
import { runScript, type PackageManager } from "./manager.ts";
import type { BinRunner } from "./start.ts";

/** A service init writes in app.services, with why. */
export interface ServiceLine {
  readonly name: string;
  readonly kind: "postgres" | "mysql" | "redis";
  readonly database: string | undefined;
  readonly why: string;
}

/** An app.env variable with its reason. */
export interface ValueLine {
  readonly name: string;
  readonly value: string;
  readonly why: string;
}

/** An app.prepare command with why it is what it is. */
export interface PrepareLine {
  readonly command: string;
  readonly why: string;
}

/** What init writes of the app's databases, and what it says it could not set up. */
export interface ServicesPlan {
  readonly services: ReadonlyArray<ServiceLine>;
  readonly env: ReadonlyArray<ValueLine>;
  readonly prepare: ReadonlyArray<PrepareLine>;
  /** Config comments for a store with no built-in kind (MongoDB): a `command` service to add where its server is installed. */
  readonly commented: ReadonlyArray<string>;
  /** What init could not set up, each with the fix. */
  readonly notes: ReadonlyArray<string>;
}

/** The built-in kinds' names in the order they are written; each is also the service's name unless a compose file names it. */
const builtIn = ["postgres", "mysql", "redis"] as const;

const kindNames: { readonly [K in StoreKind]: string } = {
  postgres: "PostgreSQL",
  mysql: "MySQL",
  redis: "Redis",
  sqlite: "SQLite",
  mongodb: "MongoDB",
};

/** Where a SQLite database goes: a file under the app's own folder, fresh for each test. */
const sqliteUrl = "file:{home}/app.db";

/** Packages whose migrations init does not know how to run, by their name in package.json. */
const unknownOrms = ["typeorm", "sequelize", "knex", "kysely", "@mikro-orm/core", "objection"];

/** The packages of `names` in package.json's dependencies or devDependencies. */
function listed(app: AppFiles, names: ReadonlyArray<string>): string[] {
  return names.filter((name) =>
    ["dependencies", "devDependencies"].some((key) => {
      const deps = app.packageJson[key];
      return typeof deps === "object" && deps !== null && name in deps;
    }),
  );
}

/** The package.json scripts, as strings. */
function scriptsOf(app: AppFiles): ReadonlyArray<readonly [string, string]> {
  const scripts = app.packageJson.scripts;
  if (typeof scripts !== "object" || scripts === null) return [];
  return Object.entries(scripts).flatMap(([name, text]) => (typeof text === "string" ? [[name, text] as const] : []));
}

/** The names of a script that runs the app's migrations, in the order init takes them. */
const migrateScriptNames = ["db:migrate", "migrate", "db:migrate:deploy", "migrate:deploy"];

/** What makes the tables of an ORM's schema at a side's commit: its migrations when it has them, else its push. */
function prepareFor(
  orm: OrmFound & { readonly major?: number | undefined },
  app: AppFiles,
  manager: PackageManager,
  runner: BinRunner,
): PrepareLine {
  if (orm.orm === "Prisma") {
    if (orm.migrations.found) {
      return {
        command: `${runner} prisma migrate deploy`,
        why: `${orm.migrations.folder} holds the app's migrations, so each side's database gets that side's schema`,
      };
    }
    // Prisma 7 no longer generates the client in db push, and has no --skip-generate.
    const skip = orm.major !== undefined && orm.major < 7;
    return {
      command: `${runner} prisma db push${skip ? " --skip-generate" : ""}`,
      why:
        `no migrations in ${orm.migrations.folder}, so db push makes the tables from ${orm.file}` +
        (skip ? " (--skip-generate: generating the client is the install's work, not each test's)" : ""),
    };
  }
  const scripts = scriptsOf(app);
  const runsKit = scripts.find(([, text]) => /\bdrizzle-kit\s+migrate\b/.test(text));
  if (runsKit !== undefined) {
    return {
      command: runScript(manager, runsKit[0], undefined),
      why: `the ${runsKit[0]} script \`${runsKit[1]}\` runs the app's migrations`,
    };
  }
  const named = migrateScriptNames.map((name) => scripts.find(([script]) => script === name)).find((script) => script !== undefined);
  if (named !== undefined) {
    return { command: runScript(manager, named[0], undefined), why: `the ${named[0]} script \`${named[1]}\` runs the app's migrations` };
  }
  if (orm.migrations.found) {
    return {
      command: `${runner} drizzle-kit migrate`,
      why: `${orm.migrations.folder} (out in ${orm.file}) holds the app's migrations, so each side's database gets that side's schema`,
    };
  }
  return {
    command: `${runner} drizzle-kit push`,
    why: `no migrations in ${orm.migrations.folder} (out in ${orm.file}), so push makes the tables from the schema it names`,
  };
}

/** The commented `command` service for MongoDB, which has no built-in kind. */
function mongoLines(variables: ReadonlyArray<string>): string[] {
  return [
    '// mongo: { kind: "command", command: "mkdir -p {home}/mongo && mongod --dbpath {home}/mongo --bind_ip 127.0.0.1 --port {port}", ready: { log: /Waiting for connections/ }, url: "mongodb://127.0.0.1:{port}/app" },',
    ...(variables.length === 0 ? [] : [`// and in env: ${variables.map((name) => `${name}: "{mongo.url}"`).join(", ")}`]),
  ];
}

/**
 * The services, env and prepare init writes for the stores the app's files name (a Prisma schema,
 * drizzle.config, a compose file, the env example), and notes for what it cannot start.
 */
export function planServices(app: AppFiles, manager: PackageManager, runner: BinRunner): ServicesPlan {
  const prisma = findPrisma(app);
  const drizzle = findDrizzle(app);
  const orms = [prisma, drizzle].filter((orm) => orm !== undefined);
  const example = findEnvExample(app);
  const mongoose = listed(app, ["mongoose", "mongodb"]);
  const stores: StoreFound[] = [
    ...orms.flatMap((orm) => (orm.store === undefined ? [] : [orm.store])),
    ...findCompose(app),
    ...example.stores,
    ...mongoose.map((name) => ({ kind: "mongodb" as const, why: `${name} in package.json`, variables: [] })),
  ];
  const notes: string[] = [];
  const services: ServiceLine[] = [];
  const env: ValueLine[] = [];
  const addEnv = (line: ValueLine) => {
    if (!env.some((known) => known.name === line.name)) env.push(line);
  };
  for (const kind of builtIn) {
    const found = stores.filter((store) => store.kind === kind);
    if (found.length === 0) continue;
    const compose = found.find((store) => store.compose !== undefined)?.compose;
    const taken = services.some((service) => service.name === compose?.name) || compose?.name === "replay";
    const name = compose === undefined || taken ? kind : compose.name;
    const database = compose?.database;
    const why = [...new Set(found.map((store) => store.why)), ...(database === undefined ? [] : [`database: ${database.why}`])].join("; ");
    services.push({ name, kind, database: database?.name, why });
    for (const store of found)
      for (const variable of store.variables) addEnv({ name: variable.name, value: `{${name}.url}`, why: variable.why });
    if (!found.some((store) => store.variables.length > 0)) {
      notes.push(
        `init found no variable that hands the app ${kindNames[kind]}'s address (${why}): add the one the app reads to app.env in scenarios.config.ts, as NAME: "{${name}.url}".`,
      );
    }
  }
  const sqlite = stores.filter((store) => store.kind === "sqlite");
  for (const store of sqlite) {
    for (const variable of store.variables) {
      addEnv({
        name: variable.name,
        value: sqliteUrl,
        why: `${variable.why}; SQLite needs no service: its file goes under {home}, the app's own folder, fresh for each test`,
      });
    }
  }
  const commented: string[] = [];
  const mongo = stores.filter((store) => store.kind === "mongodb");
  if (mongo.length > 0) {
    const why = [...new Set(mongo.map((store) => store.why))].join("; ");
    const variables = [...new Set(mongo.flatMap((store) => store.variables.map((variable) => variable.name)))];
    commented.push(
      `// MongoDB (${why}) has no built-in service kind; where mongod is installed, a command service starts it, in services:`,
      ...mongoLines(variables),
    );
    notes.push(
      `MongoDB (${why}) has no built-in service kind, so init wrote no service for it: scenarios.config.ts holds a commented command service that starts mongod; ` +
        `install MongoDB's server and add it to app.services${variables.length === 0 ? ", pointing the app's variable at {mongo.url} in app.env" : ""} (docs/config.md).`,
    );
  }
  for (const orm of orms) {
    if (orm.unknownDialect !== undefined) {
      notes.push(
        `${orm.unknownDialect.why}: init has no service for ${orm.unknownDialect.dialect}; add a command service that starts it to app.services, and its migrations to app.prepare (docs/config.md).`,
      );
    }
  }
  for (const line of example.unknown) {
    if (!env.some((known) => known.name === "DATABASE_URL")) {
      notes.push(
        `${line}: init cannot tell its database from its value or the app's ORM; add the service to app.services and DATABASE_URL: "{<service>.url}" to app.env (docs/config.md).`,
      );
    }
  }
  const others = listed(app, unknownOrms);
  const sql = services.some((service) => service.kind !== "redis") || sqlite.length > 0;
  const prepare = orms
    .filter((orm) => orm.store !== undefined && orm.store.kind !== "mongodb")
    .map((orm) => prepareFor(orm, app, manager, runner));
  if (sql && prepare.length === 0) {
    notes.push(
      `init found no migration tool it knows${others.length === 0 ? "" : ` (the app uses ${others.join(", ")})`}, so it wrote no app.prepare: ` +
        "add the command that makes the app's tables at a side's commit (its migrations, or a SQL file) to app.prepare in scenarios.config.ts.",
    );
  }
  if (services.length === 0 && sqlite.length === 0 && mongo.length === 0 && others.length > 0) {
    notes.push(
      `The app uses ${others.join(", ")}, but init found no database in its files (a compose file, an env example): ` +
        "add the database to app.services, its address to app.env and its migrations to app.prepare in scenarios.config.ts (docs/config.md).",
    );
  }
  return { services, env, prepare, commented, notes };
}
