import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markedPids, testContext } from "./kinds-test-support.ts";
import { redisKind } from "./redis.ts";

let base = "";
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "redis-kind-"));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** redis-cli, as the app's own client would, at the service's url. */
const redis = async (url: string, ...command: string[]) => (await execa("redis-cli", ["-u", url, ...command])).stdout;

describe("a redis service", () => {
  it("starts two at once, each with its own data, on 127.0.0.1 and its own port; stopped, no process is left and its folder goes", async () => {
    const [one, two] = await Promise.all([testContext("cache", base), testContext("sessions", base)]);
    const [first, second] = await Promise.all([
      redisKind.start({ kind: "redis" }, one.context),
      redisKind.start({ kind: "redis" }, two.context),
    ]);
    expect(first.values).toEqual({ url: `redis://127.0.0.1:${one.context.port}`, host: "127.0.0.1", port: String(one.context.port) });
    expect(second.values.url).toBe(`redis://127.0.0.1:${two.context.port}`);

    await redis(first.values.url ?? "", "SET", "owner", "first");
    await redis(second.values.url ?? "", "SET", "owner", "second");
    expect(await redis(first.values.url ?? "", "GET", "owner")).toBe("first");
    expect(await redis(second.values.url ?? "", "GET", "owner")).toBe("second");
    // Its own server, with no config file: its folder the data folder, bound to the loopback, saving nothing.
    expect(await redis(first.values.url ?? "", "CONFIG", "GET", "dir")).toBe(`dir\n${one.context.dataDir}`);
    expect(await redis(first.values.url ?? "", "CONFIG", "GET", "bind")).toBe("bind\n127.0.0.1");
    expect(await redis(first.values.url ?? "", "CONFIG", "GET", "save")).toBe("save\n");
    expect(await redis(first.values.url ?? "", "INFO", "server")).toMatch(/^config_file:\r?$/m);
    expect(await markedPids(one.marker)).toHaveLength(1);
    expect(one.log()).toMatch(/Ready to accept connections/);

    await Promise.all([first.stop(), second.stop()]);
    expect([...(await markedPids(one.marker)), ...(await markedPids(two.marker))]).toEqual([]);
    expect(await readdir(one.context.dataDir)).toEqual([]);
    await rm(one.context.dataDir, { recursive: true });
    await rm(two.context.dataDir, { recursive: true });
    await Promise.all([one.release(), two.release()]);
  });

  it("not found is a config error naming bin, SCENARIO_REDIS_SERVER and Debian's package", async () => {
    const empty = await mkdtemp(join(base, "path-"));
    const { context, release } = await testContext("cache-nowhere", base, empty);
    await expect(redisKind.start({ kind: "redis" }, context)).rejects.toThrow(
      "[scenario-harness:config] app.services.cache-nowhere (redis): no redis-server on the PATH. Set the service's bin or SCENARIO_REDIS_SERVER " +
        "to the path of redis-server, or install it on the PATH (Debian, Ubuntu: apt-get install redis-server).",
    );
    await expect(redisKind.start({ kind: "redis", bin: join(empty, "redis-server") }, context)).rejects.toThrow(
      `[scenario-harness:config] app.services.cache-nowhere (redis): no redis-server at ${join(empty, "redis-server")} (its bin).`,
    );
    await release();
  });
});
