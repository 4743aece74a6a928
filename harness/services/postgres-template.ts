import { createHash, randomUUID } from "node:crypto";
import { access, chown, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { HarnessError } from "../errors.ts";
import { logExcerpt } from "../log-excerpt.ts";
import { asUser, type ServiceUser } from "./service-user.ts";

/** The variable naming the folder where service templates are cached, over `$XDG_CACHE_HOME/scenario-prover/services`. */
export const serviceCacheEnv = "SCENARIO_SERVICE_CACHE";

/** Where templates of services' data folders are kept between runs: outside every test's and run's folder. */
export function serviceCache(env: NodeJS.ProcessEnv = process.env): string {
  const named = env[serviceCacheEnv];
  if (named !== undefined && named !== "") return named;
  const cacheHome = env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), ".cache");
  return join(cacheHome, "scenario-prover", "services");
}

/** The cluster a service's data folder is copied from: who owns it and what it holds. */
export interface TemplateInput {
  readonly bin: string;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  readonly runAs: ServiceUser | undefined;
  readonly env: Readonly<Record<string, string>>;
  /** The folder initdb runs in: the test's own, so a run killed meanwhile has it stopped with the test's processes. */
  readonly cwd: string;
}

const sqlName = (name: string) => `"${name.replaceAll('"', '""')}"`;
const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Runs one of the cluster's binaries as its user; its output is the error's excerpt when it fails. */
async function runBinary(input: TemplateInput, binary: string, args: ReadonlyArray<string>, stdin?: string): Promise<void> {
  const [command, commandArgs] = asUser(input.runAs, join(input.bin, binary), args);
  const result = await execa(command, commandArgs, {
    env: input.env,
    extendEnv: false,
    cwd: input.cwd,
    reject: false,
    all: true,
    ...(stdin === undefined ? { stdin: "ignore" as const } : { input: stdin }),
  });
  if (result.exitCode !== 0) {
    throw new HarnessError(
      "boot",
      `Making PostgreSQL's template cluster, \`${binary} ${args.join(" ")}\` exited with code ${String(result.exitCode)}:\n` +
        logExcerpt(result.all ?? ""),
    );
  }
}

/** How old a template being made must be to count as abandoned (its maker was killed): initdb takes seconds. */
const abandonedMs = 10 * 60_000;

/** Removes the folders of templates whose making was abandoned (their worker was killed) long enough ago. */
async function removeAbandoned(cache: string): Promise<void> {
  const names = (await readdir(cache).catch(() => [])).filter((name) => name.includes(".making-"));
  await Promise.all(
    names.map(async (name) => {
      const changed = (await stat(join(cache, name)).catch(() => undefined))?.mtimeMs;
      if (changed !== undefined && changed < Date.now() - abandonedMs) await rm(join(cache, name), { recursive: true, force: true });
    }),
  );
}

/**
 * The template cluster for these binaries and settings, made once (initdb, then the user's password and the database in
 * single-user mode) and kept in the service cache, keyed by the binaries' version, their folder, the settings and the
 * owner. Made in a folder of its own and renamed into place, so two workers making it at once both end with one whole.
 */
export async function postgresTemplate(input: TemplateInput): Promise<string> {
  const version = (
    await execa(join(input.bin, "postgres"), ["--version"], { env: input.env, extendEnv: false, stdin: "ignore" })
  ).stdout.trim();
  const key = createHash("sha256")
    .update(JSON.stringify([2, version, input.bin, input.user, input.password, input.database, input.runAs?.uid ?? process.getuid?.()]))
    .digest("hex")
    .slice(0, 16);
  const cache = serviceCache();
  const template = join(cache, `postgres-${key}`);
  const ready = await access(join(template, "PG_VERSION")).then(
    () => true,
    () => false,
  );
  if (ready) return template;

  await removeAbandoned(cache);
  const making = join(cache, `postgres-${key}.making-${randomUUID()}`);
  await mkdir(making, { recursive: true });
  if (input.runAs !== undefined) await chown(making, input.runAs.uid, input.runAs.gid);
  try {
    await runBinary(input, "initdb", [
      "-D",
      making,
      "-U",
      input.user,
      "--auth=trust",
      "--encoding=UTF8",
      "--locale=C",
      "--no-sync",
      "--wal-segsize=1",
    ]);
    const sql = [
      `ALTER USER ${sqlName(input.user)} PASSWORD ${sqlText(input.password)};`,
      ...(input.database === "postgres" ? [] : [`CREATE DATABASE ${sqlName(input.database)};`]),
    ].join("\n");
    await runBinary(input, "postgres", ["--single", "-D", making, "-c", "fsync=off", "postgres"], `${sql}\n`);
    await rename(making, template).catch(async (error: unknown) => {
      // Another worker put its template in place first: it is the same, so this one is dropped.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      await rm(making, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(making, { recursive: true, force: true });
    throw error;
  }
  return template;
}
