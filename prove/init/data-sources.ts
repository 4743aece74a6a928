import { dirname } from "node:path";
import type { AppFiles } from "./detect.ts";

/** A database or store init recognises: the built-in service kinds, and the ones it can only name. */
export type StoreKind = "postgres" | "mysql" | "redis" | "sqlite" | "mongodb";

/** A store the app's files name, and where. */
export interface StoreFound {
  readonly kind: StoreKind;
  /** Why: the line and file that name it, e.g. `provider = "postgresql" in prisma/schema.prisma`. */
  readonly why: string;
  /** The variables that hold its address, each with the line and file that name it. */
  readonly variables: ReadonlyArray<{ readonly name: string; readonly why: string }>;
  /** The service's name and database, for one from a compose file. */
  readonly compose?: { readonly name: string; readonly database: { readonly name: string; readonly why: string } | undefined };
}

/** An ORM's schema: the store it names, and what makes its tables. */
export interface OrmFound {
  readonly orm: "Prisma" | "Drizzle";
  readonly store: StoreFound | undefined;
  /** The dialect init cannot start a service for, e.g. "sqlserver"; undefined when it knows the store. */
  readonly unknownDialect: { readonly dialect: string; readonly why: string } | undefined;
  /** The migrations folder, and whether it holds migrations. */
  readonly migrations: { readonly folder: string; readonly found: boolean };
  readonly file: string;
}

/** A quoted word after `key` and `=` or `:`, e.g. `provider = "postgresql"`. */
const quoted = (text: string, key: string, sign: "=" | ":") => new RegExp(`\\b${key}\\s*${sign}\\s*["'\`]([\\w-]+)["'\`]`).exec(text)?.[1];

/** The major version of a package the app lists, when its range names one. */
function majorOf(app: AppFiles, names: ReadonlyArray<string>): number | undefined {
  for (const key of ["dependencies", "devDependencies"]) {
    const deps = app.packageJson[key];
    if (typeof deps !== "object" || deps === null) continue;
    for (const name of names) {
      const range = (deps as Record<string, unknown>)[name];
      const major = typeof range === "string" ? /^[\^~>=v\s]*(\d+)/.exec(range)?.[1] : undefined;
      if (major !== undefined) return Number(major);
    }
  }
  return undefined;
}

/** Prisma's providers, by the store they need. */
const prismaProviders: Readonly<Record<string, StoreKind>> = {
  postgresql: "postgres",
  postgres: "postgres",
  mysql: "mysql",
  sqlite: "sqlite",
  mongodb: "mongodb",
};

/** The Prisma schema's path: package.json's `prisma.schema`, else prisma/schema.prisma. */
function prismaSchemaPath(app: AppFiles): string {
  const field = app.packageJson.prisma;
  const schema = typeof field === "object" && field !== null ? (field as Record<string, unknown>).schema : undefined;
  return typeof schema === "string" ? schema.replace(/^\.\//, "") : "prisma/schema.prisma";
}

/** The variable `env("…")` names in `text`, after `key`. */
const envVariable = (text: string, key: string) => new RegExp(`\\b${key}\\s*[=:]\\s*env\\(\\s*["'](\\w+)["']\\s*\\)`).exec(text)?.[1];

/** The Prisma schema's datasource: its store, the variables of its URLs, and its migrations. */
export function findPrisma(app: AppFiles): (OrmFound & { readonly major: number | undefined }) | undefined {
  const file = prismaSchemaPath(app);
  const text = app.read(file);
  if (text === undefined) return undefined;
  const datasource = /\bdatasource\s+\w+\s*\{([^}]*)\}/.exec(text)?.[1] ?? "";
  const provider = quoted(datasource, "provider", "=");
  const major = majorOf(app, ["prisma", "@prisma/client"]);
  const folder = dirname(file);
  const migrationsFolder = `${folder === "." ? "" : `${folder}/`}migrations`;
  const migrations = { folder: migrationsFolder, found: app.list(migrationsFolder).some((path) => path.endsWith("migration.sql")) };
  const base = { orm: "Prisma" as const, migrations, file, major };
  if (provider === undefined) return { ...base, store: undefined, unknownDialect: undefined };
  const kind = prismaProviders[provider];
  const why = `provider = "${provider}" in ${file}`;
  if (kind === undefined) return { ...base, store: undefined, unknownDialect: { dialect: provider, why } };
  // Prisma 7 moves the datasource's URL to prisma.config.ts.
  const variables = (["url", "directUrl"] as const).flatMap((key) => {
    const name = envVariable(datasource, key);
    return name === undefined ? [] : [{ name, why: `${key} = env("${name}") in ${file}` }];
  });
  const config = app.read("prisma.config.ts");
  const configured = config === undefined ? undefined : envVariable(config, "url");
  const fromConfig = configured === undefined ? [] : [{ name: configured, why: `url: env("${configured}") in prisma.config.ts` }];
  return { ...base, store: { kind, why, variables: [...variables, ...fromConfig] }, unknownDialect: undefined };
}

/** drizzle-kit's dialects (and the drivers of drizzle-kit before 0.21), by the store they need. */
const drizzleDialects: Readonly<Record<string, StoreKind>> = {
  postgresql: "postgres",
  pg: "postgres",
  mysql: "mysql",
  mysql2: "mysql",
  sqlite: "sqlite",
  turso: "sqlite",
  "better-sqlite": "sqlite",
  libsql: "sqlite",
};

export const drizzleConfigs = ["drizzle.config.ts", "drizzle.config.js", "drizzle.config.mjs", "drizzle.config.cjs", "drizzle.config.mts"];

/** The text from `key`'s opening brace to its closing one, e.g. `dbCredentials: { … }`. */
function block(text: string, key: string): string | undefined {
  const start = new RegExp(`\\b${key}\\s*:\\s*\\{`).exec(text);
  if (start === null) return undefined;
  let depth = 0;
  for (let index = start.index + start[0].length - 1; index < text.length; index++) {
    if (text[index] === "{") depth++;
    if (text[index] === "}" && --depth === 0) return text.slice(start.index, index + 1);
  }
  return undefined;
}

/** `process.env.NAME`, `process.env["NAME"]`, or a validated `env.NAME` (t3-env). */
const envReadPattern = /\benv(?:\s*\.\s*(\w+)|\s*\[\s*["'](\w+)["']\s*\])/;

/** drizzle.config's dialect, the variable its dbCredentials read, and its migrations folder (`out`, drizzle/ by default). */
export function findDrizzle(app: AppFiles): OrmFound | undefined {
  const file = drizzleConfigs.find((name) => app.read(name) !== undefined);
  const text = file === undefined ? undefined : app.read(file);
  if (file === undefined || text === undefined) return undefined;
  const dialect = quoted(text, "dialect", ":") ?? quoted(text, "driver", ":");
  const out = (/\bout\s*:\s*["'`]([^"'`]+)["'`]/.exec(text)?.[1] ?? "drizzle").replace(/^\.\//, "").replace(/\/+$/, "");
  const migrations = { folder: out, found: app.list(out).some((path) => path.endsWith(".sql")) };
  const base = { orm: "Drizzle" as const, migrations, file };
  if (dialect === undefined) return { ...base, store: undefined, unknownDialect: undefined };
  const key = /\bdialect\s*:/.test(text) ? "dialect" : "driver";
  const why = `${key}: "${dialect}" in ${file}`;
  const kind = drizzleDialects[dialect];
  if (kind === undefined) return { ...base, store: undefined, unknownDialect: { dialect, why } };
  const credentials = block(text, "dbCredentials") ?? "";
  const read = envReadPattern.exec(credentials);
  const name = read?.[1] ?? read?.[2];
  const variables = name === undefined ? [] : [{ name, why: `dbCredentials reads ${name} in ${file}` }];
  return { ...base, store: { kind, why, variables }, unknownDialect: undefined };
}

/** The compose files init reads, in the order Docker Compose looks for them. */
const composeFiles = ["compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"];

/** An image's store, by its name without registry and tag: postgres, pgvector/pgvector, bitnami/redis, mariadb, mongo… */
function imageStore(image: string): StoreKind | undefined {
  const name = (image.split("@")[0] ?? "").split(":")[0]?.split("/").at(-1) ?? "";
  if (/^(postgres|postgresql|postgis|pgvector|timescaledb.*)$/.test(name)) return "postgres";
  if (/^(mysql|mariadb|percona.*)$/.test(name)) return "mysql";
  if (/^(redis|redis-stack.*|valkey|keydb|dragonfly)$/.test(name)) return "redis";
  if (/^(mongo|mongodb.*)$/.test(name)) return "mongodb";
  return undefined;
}

/** The database a compose service's environment names: POSTGRES_DB, MYSQL_DATABASE, MARIADB_DATABASE. */
const databaseVariables = ["POSTGRES_DB", "MYSQL_DATABASE", "MARIADB_DATABASE"];

/** A value as YAML writes a plain or quoted scalar, without a trailing comment. */
const scalar = (value: string) =>
  value
    .replace(/\s+#.*$/, "")
    .trim()
    .replace(/^(["'])(.*)\1$/, "$2");

/**
 * The stores a compose file's services run, by their `image:` lines, each with its service's name and
 * database. It reads the file by its lines and indentation (services: → a name → image:, environment:),
 * not as YAML: anchors, merges and `extends` are not followed.
 */
export function findCompose(app: AppFiles): StoreFound[] {
  const file = composeFiles.find((name) => app.read(name) !== undefined);
  const text = file === undefined ? undefined : app.read(file);
  if (file === undefined || text === undefined) return [];
  const services: Array<{ name: string; image?: string; database?: { name: string; why: string } }> = [];
  let inServices = false;
  let serviceIndent: number | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    if (indent === 0) {
      inServices = /^services\s*:\s*$/.test(line);
      serviceIndent = undefined;
      continue;
    }
    if (!inServices) continue;
    serviceIndent ??= indent;
    const key = /^\s*([\w.-]+)\s*:\s*(.*)$/.exec(line);
    if (indent === serviceIndent) {
      if (key?.[1] !== undefined) services.push({ name: key[1] });
      continue;
    }
    const service = services.at(-1);
    if (service === undefined) continue;
    if (key?.[1] === "image" && key[2] !== undefined) service.image = scalar(key[2]);
    // `POSTGRES_DB: app` under environment:, or `- POSTGRES_DB=app` in its list form.
    const setting = /^\s*(?:-\s*)?["']?(\w+)["']?\s*[:=]\s*(.+)$/.exec(line);
    if (setting?.[1] !== undefined && setting[2] !== undefined && databaseVariables.includes(setting[1])) {
      service.database = { name: scalar(setting[2]), why: `${setting[1]} in ${file}` };
    }
  }
  return services.flatMap((service) => {
    const kind = service.image === undefined ? undefined : imageStore(service.image);
    if (kind === undefined) return [];
    return [
      {
        kind,
        why: `service ${service.name} (image ${service.image}) in ${file}`,
        variables: [],
        compose: { name: service.name, database: service.database },
      },
    ];
  });
}

/** The env example files init reads. */
const envExamples = [".env.example", ".env.local.example", ".env.sample"];

/** Variables that hold a store's address by their name alone (the Vercel templates' POSTGRES_URL, KV_URL, REDIS_URL). */
const namedVariables: Readonly<Record<string, StoreKind>> = {
  POSTGRES_URL: "postgres",
  MYSQL_URL: "mysql",
  REDIS_URL: "redis",
  KV_URL: "redis",
};

/** A URL's store, by its scheme. */
function schemeStore(value: string): StoreKind | undefined {
  const scheme = /^([a-z+]+):/.exec(value)?.[1];
  if (scheme === "postgres" || scheme === "postgresql") return "postgres";
  if (scheme === "mysql" || scheme === "mariadb") return "mysql";
  if (scheme === "redis" || scheme === "rediss") return "redis";
  if (scheme === "mongodb" || scheme === "mongodb+srv") return "mongodb";
  if (scheme === "file") return "sqlite";
  return undefined;
}

/** The store variables of the env example files: known names, and any whose value is a database URL. */
export function findEnvExample(app: AppFiles): { readonly stores: StoreFound[]; readonly unknown: ReadonlyArray<string> } {
  const stores: StoreFound[] = [];
  const unknown: string[] = [];
  for (const file of envExamples) {
    const text = app.read(file);
    if (text === undefined) continue;
    for (const line of text.split(/\r?\n/)) {
      const match = /^\s*(?:export\s+)?(\w+)\s*=\s*(.*)$/.exec(line);
      if (match?.[1] === undefined) continue;
      const name = match[1];
      const value = scalar(match[2] ?? "");
      const kind = schemeStore(value) ?? namedVariables[name];
      if (kind === undefined) {
        if (name === "DATABASE_URL") unknown.push(`DATABASE_URL in ${file}`);
        continue;
      }
      const why = schemeStore(value) === undefined ? `${name} in ${file}` : `${name} in ${file} is a ${value.split(":")[0]}: URL`;
      stores.push({ kind, why, variables: [{ name, why }] });
    }
  }
  return { stores, unknown };
}
