import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { describe, expect, it, vi } from "vitest";
import { proofRunEnv } from "../../common/contract.ts";
import { defineScenarioConfig } from "../../harness/index.ts";
import { readAppConfig, readProofActionTimeout, readProofExpectTimeout } from "./app-config.ts";

const repo = "/work/shop";

/** The app config the prover reads from a listed config's metadata, or the error's message. */
async function read(app: Record<string, unknown>) {
  const exit = await Effect.runPromiseExit(
    readAppConfig({ scenarioApp: { start: "npm start", ...app } }, "/elsewhere/scenarios.config.ts", repo),
  );
  if (Exit.isSuccess(exit)) return exit.value;
  const error = Exit.findErrorOption(exit);
  return error._tag === "Some" ? error.value.message : "no error";
}

describe("the config's app, as the prover reads it", () => {
  it.each([
    ["no install: the lockfile decides", {}, { root: "", install: "auto", build: undefined, submodules: false }],
    ['install: "auto"', { install: "auto" }, { root: "", install: "auto", build: undefined, submodules: false }],
    ["install: false skips installing", { install: false }, { root: "", install: false, build: undefined, submodules: false }],
    [
      "install: a command",
      { install: "npm ci --ignore-scripts", build: "npm run build" },
      { root: "", install: "npm ci --ignore-scripts", build: "npm run build", submodules: false },
    ],
    [
      "root relative to the repository's root, wherever the config is",
      { root: "apps/web" },
      { root: "apps/web", install: "auto", build: undefined, submodules: false },
    ],
    ['root "." is the repository\'s root', { root: "." }, { root: "", install: "auto", build: undefined, submodules: false }],
    ["submodules: true", { submodules: true }, { root: "", install: "auto", build: undefined, submodules: true }],
    [
      "variables with placeholders in their values",
      { env: { APP_URL: "http://127.0.0.1:{port}", _flag2: "1" }, provider: { OPENAI_BASE_URL: "{replay}/v1" } },
      { root: "", install: "auto", build: undefined, submodules: false },
    ],
    ["route: true", { route: true }, { root: "", install: "auto", build: undefined, submodules: false }],
    [
      "route with hosts for each transcript and services allowed",
      { route: { hosts: { chat: ["api.openai.com"], title: ["api.anthropic.com"] }, allow: ["db.localhost"] } },
      { root: "", install: "auto", build: undefined, submodules: false },
    ],
    [
      "several processes by name, each a command or its command and ready check",
      { start: { web: "npm start", api: { command: "node api.js", ready: { path: "/health" } } }, env: { API_URL: "{api.url}" } },
      { root: "", install: "auto", build: undefined, submodules: false },
    ],
    [
      "routes to warm once the app is ready",
      { ready: { path: "/", warm: ["/api/chat", "/api/title?warm=1"] } },
      { root: "", install: "auto", build: undefined, submodules: false },
    ],
  ])("takes %s", async (_case, app, expected) => {
    expect(await read(app)).toEqual(expected);
  });

  it.each([
    [
      "install: true",
      { install: true },
      'app.install must be "auto" (the lockfile decides: pnpm, npm or yarn), a shell command that installs the app\'s dependencies (e.g. "npm ci --ignore-scripts"), or false to skip installing; got true.',
    ],
    ["install: 0", { install: 0 }, "or false to skip installing; got 0."],
    ['install: ""', { install: "" }, 'or false to skip installing; got "".'],
    ['install: "none"', { install: "none" }, 'app.install "none" would run a command called none; to skip installing, set install: false.'],
    [
      "a root outside the repository",
      { root: "../other" },
      'app.root "../other" is not a folder inside the repository /work/shop; set it to the app\'s folder relative to the repository\'s root (e.g. "." or "apps/web").',
    ],
    ["an absolute root", { root: "/work/shop/apps/web" }, 'app.root "/work/shop/apps/web" is not a folder inside the repository'],
    [
      "submodules: a string",
      { submodules: "yes" },
      'app.submodules is "yes"; set it to true to check out the repository\'s git submodules in each worktree, or leave it out.',
    ],
    ["no start", { start: "" }, 'app.start is not set: set it to the command that starts the server, e.g. "npm start".'],
    ["a start naming no process", { start: {} }, 'app.start is not set: set it to the command that starts the server, e.g. "npm start".'],
    [
      "a placeholder as a variable's name",
      { env: { "{port}": "x" } },
      'app.env has a variable named "{port}"; rename it to letters, digits and _ (not starting with a digit). Placeholders such as {port} are filled into values, not names: e.g. env: { APP_URL: "http://127.0.0.1:{port}" }.',
    ],
    [
      "a provider variable that is no name",
      { provider: { "OPENAI-BASE-URL": "{replay}/v1" } },
      'app.provider has a variable named "OPENAI-BASE-URL"; rename it to letters, digits and _ (not starting with a digit).',
    ],
    ["route: a host name alone", { route: "api.openai.com" }, 'app.route is "api.openai.com"; set it to true (route the hosts'],
    ["route.hosts: a string", { route: { hosts: "api.openai.com" } }, 'app.route.hosts is "api.openai.com"; set it to true'],
    ["route.allow: a number", { route: { allow: [5432] } }, "app.route.allow is [5432]; set it to true"],
    ["route: an unknown field", { route: { host: ["x"] } }, 'app.route has a field "host" it does not know; set it to true'],
    [
      "route.allow: a host off this machine",
      { route: { allow: ["db.localhost", "203.0.113.7:5432"] } },
      "app.route.allow names hosts that are not on this machine: 203.0.113.7:5432 (not a loopback address). The route passes",
    ],
    [
      "ready.warm: a path alone",
      { ready: { path: "/", warm: "/api/chat" } },
      'app.ready.warm is "/api/chat"; set it to a list of paths the harness asks for once the app is ready, each starting with "/", e.g. ["/api/chat"], or leave it out.',
    ],
    [
      "ready.warm: a URL",
      { ready: { log: "ready", warm: ["http://localhost:3000/api/chat"] } },
      'app.ready.warm holds "http://localhost:3000/api/chat", which is not a path; set it to a list of paths',
    ],
    ["ready.warm: a number", { ready: { path: "/", warm: [3000] } }, "app.ready.warm holds 3000, which is not a path; set it to a list"],
  ])("refuses %s, naming the valid values", async (_case, app, message) => {
    expect(await read(app)).toContain(message);
  });
});

describe("the config's proof settings, as the prover reads them", () => {
  const expectTimeout = (proof: unknown) => {
    const exit = Effect.runSyncExit(
      readProofExpectTimeout(proof === undefined ? {} : { scenarioProof: proof }, "/elsewhere/scenarios.config.ts"),
    );
    if (Exit.isSuccess(exit)) return exit.value;
    const error = Exit.findErrorOption(exit);
    return error._tag === "Some" ? error.value.message : "no error";
  };

  it("take proof.expectTimeout in ms, leave it to the config's own when unset, and refuse anything but a whole number of ms", () => {
    expect([expectTimeout(undefined), expectTimeout({}), expectTimeout({ expectTimeout: 3000 })]).toEqual([undefined, undefined, 3000]);
    for (const bad of ["3s", 0, 2.5]) {
      expect(expectTimeout({ expectTimeout: bad })).toBe(
        `Scenario config /elsewhere/scenarios.config.ts: proof.expectTimeout is ${JSON.stringify(bad)}; set it to a whole number of milliseconds, e.g. 3000, or leave it out.`,
      );
    }
  });

  it("take proof.actionTimeout in ms, and refuse anything but a whole number of ms", () => {
    const actionTimeout = (proof: unknown) => {
      const exit = Effect.runSyncExit(readProofActionTimeout({ scenarioProof: proof }, "/elsewhere/scenarios.config.ts"));
      if (Exit.isSuccess(exit)) return exit.value;
      const error = Exit.findErrorOption(exit);
      return error._tag === "Some" ? error.value.message : "no error";
    };
    expect([actionTimeout({}), actionTimeout({ actionTimeout: 2000 })]).toEqual([undefined, 2000]);
    expect(actionTimeout({ actionTimeout: "2s" })).toBe(
      'Scenario config /elsewhere/scenarios.config.ts: proof.actionTimeout is "2s"; set it to a whole number of milliseconds, e.g. 3000, or leave it out.',
    );
  });
});

describe("the action and navigation timeouts of a proof's runs", () => {
  /** The action and navigation timeouts a config gives, in a proof's run or not. */
  const timeouts = (inProof: boolean, config: Partial<Parameters<typeof defineScenarioConfig>[0]>) => {
    vi.stubEnv(proofRunEnv, inProof ? "1" : undefined);
    try {
      const { use } = defineScenarioConfig({ app: { start: "npm start" }, ...config });
      return [use?.actionTimeout, use?.navigationTimeout];
    } finally {
      vi.unstubAllEnvs();
    }
  };

  it("are proof.actionTimeout, else the expect timeout, in a proof's run, and Playwright's own elsewhere", () => {
    expect(timeouts(false, { expect: { timeout: 5_000 } })).toEqual([undefined, undefined]);
    expect(timeouts(true, { expect: { timeout: 5_000 } })).toEqual([5_000, 5_000]);
    expect(timeouts(true, {})).toEqual([10_000, 10_000]);
    expect(timeouts(true, { expect: { timeout: 5_000 }, proof: { actionTimeout: 2_000 } })).toEqual([2_000, 2_000]);
  });

  it("leave the ones the config's use sets as they are", () => {
    expect(timeouts(true, { use: { actionTimeout: 0 }, proof: { actionTimeout: 2_000 } })).toEqual([0, 2_000]);
    expect(timeouts(true, { use: { navigationTimeout: 30_000 } })).toEqual([10_000, 30_000]);
  });
});

describe("the metadata defineScenarioConfig writes", () => {
  it("is what the prover reads, as JSON, beside the config's own metadata", () => {
    const config = defineScenarioConfig({
      metadata: { team: "shop" },
      app: { root: "apps/web", install: false, build: "pnpm build", submodules: true, start: "pnpm start", ready: { log: /ready/ } },
      proof: { expectTimeout: 4000 },
    });
    const metadata = JSON.parse(JSON.stringify(config.metadata)) as Record<string, unknown>;
    expect(metadata.team).toBe("shop");
    expect(Effect.runSync(readAppConfig(metadata, "/elsewhere/scenarios.config.ts", repo))).toEqual({
      root: "apps/web",
      install: false,
      build: "pnpm build",
      submodules: true,
    });
    expect(Effect.runSync(readProofExpectTimeout(metadata, "/elsewhere/scenarios.config.ts"))).toBe(4000);
  });

  it("holds each process of app.start, a ready line as its source text", () => {
    const start = { web: "pnpm start", worker: { command: "node worker.js", ready: { log: /worker ready/, timeout: 5000 } } };
    const metadata = JSON.parse(JSON.stringify(defineScenarioConfig({ app: { start } }).metadata)) as { scenarioApp: { start: unknown } };
    expect(metadata.scenarioApp.start).toEqual({
      web: "pnpm start",
      worker: { command: "node worker.js", ready: { log: "worker ready", timeout: 5000 } },
    });
  });
});
