import { describe, expect, it } from "vitest";
import { appEnvironment } from "./environment.ts";

const input = (developer: NodeJS.ProcessEnv) => ({
  app: { start: "node server.js", homeEnv: "APP_HOME" },
  dirs: { home: "/run/home", appHome: "/run/app-home" },
  port: 4100,
  replayUrl: undefined,
  replayCommand: undefined,
  replayExecutable: undefined,
  developer,
});

describe("the app's environment", () => {
  it("keeps the developer's TMPDIR, and in a proof the prover's instead of the Playwright run's own", () => {
    const developer = { PATH: "/usr/bin", TMPDIR: "/tmp", OPENAI_API_KEY: "sk-developer" };
    expect(appEnvironment(input(developer))).toMatchObject({
      PATH: "/usr/bin",
      TMPDIR: "/tmp",
      HOME: "/run/home",
      APP_HOME: "/run/app-home",
      PORT: "4100",
    });
    const inProof = appEnvironment(input({ ...developer, TMPDIR: "/run/attempt/tmp", SCENARIO_APP_TMPDIR: "/tmp" }));
    expect(inProof.TMPDIR).toBe("/tmp");
    expect(Object.keys(inProof).filter((name) => name.startsWith("SCENARIO_") || name.includes("API_KEY"))).toEqual([]);
  });

  it("fills the placeholders into the config's provider and env values: the stdio peer's command line, its launcher's path and a service's values, refusing a value the service does not have", () => {
    const env = appEnvironment({
      ...input({ PATH: "/usr/bin" }),
      app: {
        start: "node server.js",
        provider: { AGENT_COMMAND: "{replayCommand}", CLAUDE_PATH: "{replayExecutable}" },
        env: {
          APP_URL: "http://127.0.0.1:{port}/",
          DATA: "{home}/data",
          BASE: "{replay}/v1",
          DATABASE_URL: "{db.url}",
          DB_PORT: "{db.port}",
        },
      },
      services: { db: { url: "postgresql://postgres:postgres@127.0.0.1:4200/app", port: "4200" } },
      replayCommand: "'/usr/bin/node' '/repo/replay-agent/cli.ts' 'stdio' '--transcript' '/t.ndjson' '--'",
      replayExecutable: "/tmp/replay-agent-peer-x1/claude",
    });
    expect(env).toMatchObject({
      AGENT_COMMAND: "'/usr/bin/node' '/repo/replay-agent/cli.ts' 'stdio' '--transcript' '/t.ndjson' '--'",
      CLAUDE_PATH: "/tmp/replay-agent-peer-x1/claude",
      APP_URL: "http://127.0.0.1:4100/",
      DATA: "/run/app-home/data",
      BASE: "http://127.0.0.1:9/v1",
      DATABASE_URL: "postgresql://postgres:postgres@127.0.0.1:4200/app",
      DB_PORT: "4200",
    });
    const misspelt = { ...input({ PATH: "/usr/bin" }), app: { start: "node server.js", env: { DATABASE_URL: "{db.uri}" } } };
    expect(() => appEnvironment({ ...misspelt, services: { db: { url: "postgresql://x", port: "4200" } } })).toThrow(
      '[scenario-harness:config] {db.uri} names no value of service "db": use one of {db.url}, {db.port}.',
    );
  });

  it("fills {replay.<name>} with each named transcript's agent, a name the test does not give as {replay} without one, and puts the route's NODE_OPTIONS first", () => {
    const app = {
      start: "node server.js",
      provider: { OPENAI_BASE_URL: "{replay.chat}/v1", ANTHROPIC_BASE_URL: "{replay.title}" },
      env: { NODE_OPTIONS: "--max-old-space-size=512", HTTPS_PROXY: "http://proxy.example:3128" },
    };
    const replayNamed = { chat: "http://127.0.0.1:4201", title: "http://127.0.0.1:4202" };
    const routeEnv = { HTTPS_PROXY: "http://127.0.0.1:4300", NODE_OPTIONS: '--require "/pkg/dist/bin/route-preload.cjs"' };
    expect(appEnvironment({ ...input({ PATH: "/usr/bin" }), app, replayNamed, routeEnv })).toMatchObject({
      OPENAI_BASE_URL: "http://127.0.0.1:4201/v1",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:4202",
      HTTPS_PROXY: "http://127.0.0.1:4300",
      NODE_OPTIONS: '--require "/pkg/dist/bin/route-preload.cjs" --max-old-space-size=512',
    });
    expect(appEnvironment({ ...input({ PATH: "/usr/bin" }), app, replayNamed: { chat: "http://127.0.0.1:4201" } })).toMatchObject({
      OPENAI_BASE_URL: "http://127.0.0.1:4201/v1",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
    });
  });
});
