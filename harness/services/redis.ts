import { dirname, join } from "node:path";
import type { RedisServiceConfig } from "../config.ts";
import { execa } from "execa";
import { HarnessError } from "../errors.ts";
import { argsField, findProgram, isExecutable, pathFolders, startForeground } from "./foreground-server.ts";
import type { RunningService, ServiceContext, ServiceKind } from "./kind.ts";

/** The variable naming redis-server's path when the config's `bin` does not. */
export const redisServerEnv = "SCENARIO_REDIS_SERVER";

/** Where redis-server is: the config's `bin`, else SCENARIO_REDIS_SERVER, else the PATH; a config error naming all three otherwise. */
async function redisServer(config: RedisServiceConfig, context: ServiceContext): Promise<string> {
  const bin: unknown = config.bin;
  if (bin !== undefined && typeof bin !== "string")
    throw new HarnessError(
      "config",
      `app.services.${context.name}.bin is ${JSON.stringify(bin)}: set it to the path of redis-server, or leave it out.`,
    );
  const named = bin ?? (process.env[redisServerEnv] || undefined);
  const where = bin !== undefined ? `at ${bin} (its bin)` : named !== undefined ? `at ${named} (${redisServerEnv})` : "on the PATH";
  const found =
    named !== undefined
      ? (await isExecutable(named))
        ? named
        : undefined
      : await findProgram(["redis-server"], pathFolders(context.env.PATH));
  if (found !== undefined) return found;
  throw new HarnessError(
    "config",
    `app.services.${context.name} (redis): no redis-server ${where}. Set the service's bin or ${redisServerEnv} to the path of redis-server, ` +
      `or install it on the PATH (Debian, Ubuntu: apt-get install redis-server).`,
  );
}

/** Asks the server for PING through redis-cli beside redis-server: a real connection. */
async function ping(cli: string, port: number, context: ServiceContext): Promise<string | undefined> {
  const result = await execa(cli, ["-h", "127.0.0.1", "-p", String(port), "ping"], {
    env: context.env,
    extendEnv: false,
    reject: false,
    all: true,
  });
  return result.exitCode === 0 && result.stdout.trim() === "PONG" ? undefined : result.all;
}

/**
 * Starts redis-server with no config file, on 127.0.0.1 and the service's port only, in its data
 * folder, persisting nothing unless its args ask; resolves once it answers PING.
 */
async function startRedis(config: RedisServiceConfig, context: ServiceContext): Promise<RunningService> {
  const args = argsField(config.args, context, "redis-server");
  const server = await redisServer(config, context);
  const cli = join(dirname(server), "redis-cli");
  if (!(await isExecutable(cli)))
    throw new HarnessError(
      "config",
      `app.services.${context.name} (redis): no redis-cli beside ${server}, which the harness asks for PING. ` +
        `Install it there (Debian, Ubuntu: apt-get install redis-tools), or set bin to a redis-server that has one beside it.`,
    );
  const started = await startForeground({
    program: server,
    args: [
      ...["--port", String(context.port), "--bind", "127.0.0.1", "--dir", context.dataDir, "--daemonize", "no"],
      ...["--save", "", "--appendonly", "no", "--logfile", ""],
      // Its process title would be written over its environment, and with it the run marker that cleanup finds it by.
      ...["--set-proc-title", "no"],
      ...args,
    ],
    context,
    readyLine: /Ready to accept connections/,
    kind: "redis",
  });
  const failed = await ping(cli, context.port, context);
  if (failed !== undefined) {
    await started.stop();
    throw new HarnessError(
      "boot",
      `app.services.${context.name} (redis): the server said it was ready, but PING on 127.0.0.1:${context.port} did not answer PONG: ${failed.trim()}`,
    );
  }
  const values = { url: `redis://127.0.0.1:${context.port}`, host: "127.0.0.1", port: String(context.port) };
  return { values, stop: started.stop };
}

/** The `redis` service kind. */
export const redisKind: ServiceKind<RedisServiceConfig> = { kind: "redis", start: startRedis };
