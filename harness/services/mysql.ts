import { createHash, randomUUID } from "node:crypto";
import type { MysqlServiceConfig } from "../config.ts";
import { cp, mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { ownedName, ownerAlive, ownerInName } from "../../common/ownership.ts";
import { HarnessError } from "../errors.ts";
import { logExcerpt } from "../log-excerpt.ts";
import { argsField, findProgram, pathFolders, startForeground } from "./foreground-server.ts";
import { serviceCache } from "./postgres-template.ts";
import type { RunningService, ServiceContext, ServiceKind } from "./kind.ts";

/** The variable naming the folder that holds mariadbd when the config's `bin` does not. */
export const mysqlBinEnv = "SCENARIO_MYSQL_BIN";

const defaults = { database: "app", user: "app", password: "app" };

/**
 * The server's settings for a throwaway test database, at the install and at each start: Debian's
 * utf8mb4 defaults (its config file is not read), no name lookups, and no waiting on the disk (no
 * flush at commit, no doublewrite), a small redo log (the template copied per test is 17 MB, not
 * 110 MB), no temporary tablespace written out at start and no buffer pool dump at stop.
 */
export const mysqlTestSettings: ReadonlyArray<string> = [
  "--skip-name-resolve",
  "--character-set-server=utf8mb4",
  "--collation-server=utf8mb4_general_ci",
  "--innodb-flush-log-at-trx-commit=0",
  "--innodb-doublewrite=0",
  "--innodb-log-file-size=4M",
  "--innodb-temp-data-file-path=ibtmp1:1M:autoextend",
  "--innodb-buffer-pool-dump-at-shutdown=0",
  "--innodb-buffer-pool-load-at-startup=0",
];

/**
 * mariadbd refuses to run as root unless told which user to be: as root (uid 0, as in CI containers)
 * it is told root, so it does not switch to the package's mysql user, which could not write a data
 * folder root made. As any other user it runs as that user and takes no --user.
 */
const asUser = (): ReadonlyArray<string> => (process.getuid?.() === 0 ? ["--user=root"] : []);

/** The programs of one MariaDB installation. */
interface Programs {
  readonly server: string;
  readonly installDb: string;
  readonly admin: string;
  /** What the server's --version printed, which keys the template. */
  readonly version: string;
}

/** The service's settings, defaults filled in. */
interface Settings {
  readonly database: string;
  readonly user: string;
  readonly password: string;
  readonly args: ReadonlyArray<string>;
}

const install = "(Debian, Ubuntu: apt-get install mariadb-server)";

function settingsOf(config: MysqlServiceConfig, context: ServiceContext): Settings {
  const text = (field: "database" | "user" | "password", pattern: RegExp, what: string): string => {
    const value: unknown = config[field] ?? defaults[field];
    if (typeof value === "string" && pattern.test(value)) return value;
    throw new HarnessError(
      "config",
      `app.services.${context.name}.${field} is ${JSON.stringify(value)}: set it to ${what}, or leave it out for "${defaults[field]}".`,
    );
  };
  return {
    database: text("database", /^\w{1,64}$/, "a name of letters, digits and _ (at most 64)"),
    user: text("user", /^\w{1,80}$/, "a name of letters, digits and _ (at most 80)"),
    password: text("password", /^[^'\\]*$/, "a string without ' or \\"),
    args: argsField(config.args, context, "mariadbd"),
  };
}

/** The first of `names` beside the server or in the bin folder beside its folder (Debian's /usr/sbin and /usr/bin). */
async function tool(server: string, names: ReadonlyArray<string>, context: ServiceContext): Promise<string> {
  const found = await findProgram(names, [dirname(server), join(dirname(dirname(server)), "bin")]);
  if (found !== undefined) return found;
  throw new HarnessError(
    "config",
    `app.services.${context.name} (mysql): no ${names.join(" or ")} beside ${server} or in ${join(dirname(dirname(server)), "bin")}. ` +
      `Install MariaDB's server and client whole ${install}, or set bin to a folder holding one.`,
  );
}

/** Where mariadbd and its tools are: the config's `bin` folder, else SCENARIO_MYSQL_BIN, else the PATH and /usr/sbin. */
async function programsOf(config: MysqlServiceConfig, context: ServiceContext): Promise<Programs> {
  const bin: unknown = config.bin;
  if (bin !== undefined && typeof bin !== "string")
    throw new HarnessError(
      "config",
      `app.services.${context.name}.bin is ${JSON.stringify(bin)}: set it to the folder holding mariadbd, or leave it out.`,
    );
  const folder = bin ?? (process.env[mysqlBinEnv] || undefined);
  const folders = folder !== undefined ? [folder] : [...pathFolders(context.env.PATH), "/usr/sbin"];
  const where =
    bin !== undefined ? `in ${bin} (its bin)` : folder !== undefined ? `in ${folder} (${mysqlBinEnv})` : "on the PATH or in /usr/sbin";
  const server = await findProgram(["mariadbd", "mysqld"], folders);
  if (server === undefined)
    throw new HarnessError(
      "config",
      `app.services.${context.name} (mysql): no mariadbd or mysqld ${where}. Set the service's bin or ${mysqlBinEnv} to the folder holding mariadbd, ` +
        `or install MariaDB ${install}.`,
    );
  const version = (await execa(server, ["--no-defaults", "--version"], { env: context.env, extendEnv: false })).stdout.trim();
  if (!/MariaDB/.test(version))
    throw new HarnessError(
      "config",
      `app.services.${context.name} (mysql): ${server} is not MariaDB (it says "${version}"), and the mysql kind starts MariaDB only. ` +
        `Install MariaDB ${install}, or set bin or ${mysqlBinEnv} to the folder holding its mariadbd.`,
    );
  return {
    server,
    version,
    installDb: await tool(server, ["mariadb-install-db", "mysql_install_db"], context),
    admin: await tool(server, ["mariadb-admin", "mysqladmin"], context),
  };
}

/** The start of the name of a template being made, with its maker's owner token, so one a dead maker left is removed. */
const buildingPrefix = ".mysql-building-";

/** SQL that makes the app's database and its user, with every privilege (an ORM may make a shadow database). */
function setupSql(settings: Settings): string {
  const account = `'${settings.user}'@'%'`;
  return [
    // The install runs its extra file with the grant tables unread: this reads them, so accounts can be made.
    "FLUSH PRIVILEGES;",
    `CREATE DATABASE \`${settings.database}\`;`,
    `CREATE USER ${account} IDENTIFIED BY '${settings.password}';`,
    `GRANT ALL PRIVILEGES ON *.* TO ${account} WITH GRANT OPTION;`,
    "",
  ].join("\n");
}

/** Removes the templates being made by processes that have died. */
async function removeAbandoned(templates: string): Promise<void> {
  for (const name of await readdir(templates)) {
    const owner = ownerInName(buildingPrefix, name);
    if (owner !== undefined && !ownerAlive(owner)) await rm(join(templates, name), { recursive: true, force: true });
  }
}

/**
 * The template data folder for these programs and settings: made once with mariadb-install-db in a
 * folder of its own, then renamed into place, so two makers at once each make a whole one and the
 * first rename wins; the other's is removed.
 */
async function template(programs: Programs, settings: Settings, templates: string, context: ServiceContext): Promise<string> {
  const key = createHash("sha256")
    .update(JSON.stringify({ ...programs, ...settings, mysqlTestSettings }))
    .digest("hex")
    .slice(0, 16);
  const made = join(templates, `mysql-${key}`);
  if (
    await stat(made).then(
      () => true,
      () => false,
    )
  )
    return made;
  await mkdir(templates, { recursive: true });
  await removeAbandoned(templates);
  const building = join(templates, `${ownedName(buildingPrefix)}${randomUUID()}`);
  const sql = `${building}.sql`;
  // Its own, as each server's: one removes the temporary tables of another in a shared tmpdir, which fails an install at once.
  const tmp = `${building}.tmp`;
  await writeFile(sql, setupSql(settings));
  await mkdir(tmp);
  try {
    const args = [
      "--no-defaults",
      `--datadir=${building}`,
      `--tmpdir=${tmp}`,
      `--basedir=${dirname(dirname(programs.server))}`,
      ...asUser(),
      "--skip-test-db",
      `--extra-file=${sql}`,
      ...mysqlTestSettings,
      ...settings.args,
    ];
    context.record(`[scenario-harness: making the template data folder ${made} with ${programs.installDb}]\n`);
    const result = await execa(programs.installDb, args, { env: context.env, extendEnv: false, reject: false, all: true });
    context.record(result.all);
    if (result.exitCode !== 0)
      throw new HarnessError(
        "boot",
        `app.services.${context.name} (mysql): ${programs.installDb} ${args.join(" ")} exited with code ${String(result.exitCode)}. ` +
          `Its output:\n${logExcerpt(result.all)}`,
      );
    await rename(building, made).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
    await rm(tmp, { recursive: true, force: true });
    await rm(sql, { force: true });
  }
  return made;
}

/** Whether the server accepts the service's user over TCP: mariadb-admin's ping; its output when it does not. */
async function ping(programs: Programs, settings: Settings, context: ServiceContext): Promise<string | undefined> {
  const result = await execa(
    programs.admin,
    [
      "--no-defaults",
      "--protocol=tcp",
      "--host=127.0.0.1",
      `--port=${context.port}`,
      `--user=${settings.user}`,
      `--password=${settings.password}`,
      "ping",
    ],
    { env: context.env, extendEnv: false, reject: false, all: true },
  );
  return result.exitCode === 0 ? undefined : result.all;
}

/**
 * Starts MariaDB on a copy of the template (`data` in the service's folder, its temporary files in
 * `tmp`), reading no config file of the machine's, on 127.0.0.1 and the service's port only, its
 * socket and pid file in its data; resolves once its user connects.
 */
async function startMysql(config: MysqlServiceConfig, context: ServiceContext, templates: string): Promise<RunningService> {
  const settings = settingsOf(config, context);
  const programs = await programsOf(config, context);
  // The server's data and its temporary files side by side: a folder in its data folder would be a database.
  const data = join(context.dataDir, "data");
  const tmp = join(context.dataDir, "tmp");
  await cp(await template(programs, settings, templates, context), data, { recursive: true });
  await mkdir(tmp);
  const started = await startForeground({
    program: programs.server,
    args: [
      "--no-defaults",
      `--datadir=${data}`,
      `--tmpdir=${tmp}`,
      ...asUser(),
      "--bind-address=127.0.0.1",
      `--port=${context.port}`,
      // Relative to its data folder, which the server runs in: a socket's path is limited to 107 bytes.
      "--socket=mysqld.sock",
      "--pid-file=mysqld.pid",
      ...mysqlTestSettings,
      ...settings.args,
    ],
    context,
    readyLine: /\bready for connections\b/,
    kind: "mysql",
  });
  const failed = await ping(programs, settings, context);
  if (failed !== undefined) {
    await started.stop();
    throw new HarnessError(
      "boot",
      `app.services.${context.name} (mysql): the server said it was ready, but ${programs.admin} ping as ${settings.user} ` +
        `on 127.0.0.1:${context.port} failed: ${failed.trim()}`,
    );
  }
  const { database, user, password } = settings;
  const host = "127.0.0.1";
  const port = String(context.port);
  const url = `mysql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${port}/${database}`;
  return { values: { url, host, port, user, password, database }, stop: started.stop };
}

/** The `mysql` service kind, its template data folders kept in `templates`. */
export const mysqlKindAt = (templates: string): ServiceKind<MysqlServiceConfig> => ({
  kind: "mysql",
  start: (config, context) => startMysql(config, context, templates),
});

/** The `mysql` service kind, its template data folders kept in the service cache (SCENARIO_SERVICE_CACHE, else the user's cache folder). */
export const mysqlKind: ServiceKind<MysqlServiceConfig> = {
  kind: "mysql",
  start: (config, context) => startMysql(config, context, serviceCache()),
};
