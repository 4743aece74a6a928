import { isAbsolute, normalize, relative, resolve } from "node:path";
import * as Effect from "effect/Effect";
import { appMetadataKey, proofMetadataKey } from "../../common/contract.ts";
import { warmProblem } from "../../common/ready-warm.ts";
import { offMachine, offMachineProblem } from "../../common/route-hosts.ts";
import { ConfigError } from "../errors.ts";

/** What the prover needs of the config's `app` (AppMetadata in the config's metadata). */
export interface AppConfig {
  /** The app's folder relative to the root of the repository under test ("" for the root). */
  readonly root: string;
  /** "auto", a shell command, or false to skip installing. */
  readonly install: string | false;
  readonly build: string | undefined;
  /** Check out the submodules in each worktree. */
  readonly submodules: boolean;
}

const optionalString = (value: unknown, key: string, config: string): Effect.Effect<string | undefined, ConfigError> => {
  if (value === undefined || value === null) return Effect.succeed(undefined);
  if (typeof value === "string") return Effect.succeed(value);
  return Effect.fail(new ConfigError({ config, detail: `app.${key} must be a string; got ${JSON.stringify(value)}.` }));
};

/** Words a person writes meaning "do not install", which as a command would run a program of that name. */
const skipWords = new Set(["none", "skip", "false", "no", "off"]);

/** `app.install`: "auto" (the default), a shell command, or false. */
const installValue = (value: unknown, config: string): Effect.Effect<string | false, ConfigError> => {
  if (value === undefined || value === null || value === "auto") return Effect.succeed("auto");
  if (typeof value === "string" && skipWords.has(value.trim().toLowerCase())) {
    return Effect.fail(
      new ConfigError({
        config,
        detail: `app.install ${JSON.stringify(value)} would run a command called ${value.trim()}; to skip installing, set install: false.`,
      }),
    );
  }
  if (value === false || (typeof value === "string" && value.trim() !== "")) return Effect.succeed(value);
  return Effect.fail(
    new ConfigError({
      config,
      detail:
        `app.install must be "auto" (the lockfile decides: pnpm, npm or yarn), a shell command that installs the app's dependencies ` +
        `(e.g. "npm ci --ignore-scripts"), or false to skip installing; got ${JSON.stringify(value)}.`,
    }),
  );
};

/** A name the app's environment can hold: letters, digits and _, not starting with a digit. */
const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Refuses `app.env` and `app.provider` names that are not variable names (placeholders are filled into values only). */
const variableNames = (fields: Record<string, unknown>, config: string): Effect.Effect<void, ConfigError> => {
  for (const key of ["env", "provider"] as const) {
    const variables = fields[key];
    if (typeof variables !== "object" || variables === null) continue;
    const bad = Object.keys(variables).find((name) => !variableName.test(name));
    if (bad === undefined) continue;
    const placeholder = /\{\w+\}/.test(bad)
      ? ` Placeholders such as {port} are filled into values, not names: e.g. ${key}: { APP_URL: "http://127.0.0.1:{port}" }.`
      : "";
    return Effect.fail(
      new ConfigError({
        config,
        detail: `app.${key} has a variable named ${JSON.stringify(bad)}; rename it to letters, digits and _ (not starting with a digit).${placeholder}`,
      }),
    );
  }
  return Effect.void;
};

const stringList = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === "string" && item !== "");

/** What a bad `app.route` is told: its shape, as docs/routing.md gives it. */
const routeShape =
  'set it to true (route the hosts of each transcript\'s provider), or { hosts: ["api.anthropic.com"], allow: ["db.localhost"] } ' +
  "(hosts: a list, or a list for each transcript's name), or leave it out";

/** Refuses an `app.route` the harness could not read: true, false, or { hosts, allow } with lists of host names. */
const routeValue = (value: unknown, config: string): Effect.Effect<void, ConfigError> => {
  if (value === undefined || typeof value === "boolean") return Effect.void;
  const fail = (what: string) => Effect.fail(new ConfigError({ config, detail: `app.route${what}; ${routeShape}.` }));
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fail(` is ${JSON.stringify(value)}`);
  const { hosts, allow, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) return fail(` has a field ${JSON.stringify(unknown)} it does not know`);
  const byName = typeof hosts === "object" && hosts !== null && !Array.isArray(hosts) && Object.values(hosts).every(stringList);
  if (hosts !== undefined && !stringList(hosts) && !byName) return fail(`.hosts is ${JSON.stringify(hosts)}`);
  if (allow !== undefined && !stringList(allow)) return fail(`.allow is ${JSON.stringify(allow)}`);
  // The harness refuses these too as each test starts; here they are refused before either side installs.
  return Effect.promise(() => offMachine((allow as ReadonlyArray<string> | undefined) ?? [])).pipe(
    Effect.flatMap((away) =>
      away.length === 0
        ? Effect.void
        : Effect.fail(
            new ConfigError({
              config,
              detail: offMachineProblem(away),
            }),
          ),
    ),
  );
};

/** Refuses an `app.ready.warm` the harness could not ask for: a list of paths, each starting with "/". */
const warmValue = (ready: unknown, config: string): Effect.Effect<void, ConfigError> => {
  const problem = typeof ready === "object" && ready !== null ? warmProblem((ready as Record<string, unknown>).warm) : undefined;
  return problem === undefined ? Effect.void : Effect.fail(new ConfigError({ config, detail: `app.ready.warm ${problem}.` }));
};

/** `app.submodules`: true or false (the default). */
const submodulesValue = (value: unknown, config: string): Effect.Effect<boolean, ConfigError> =>
  value === undefined || typeof value === "boolean"
    ? Effect.succeed(value === true)
    : Effect.fail(
        new ConfigError({
          config,
          detail: `app.submodules is ${JSON.stringify(value)}; set it to true to check out the repository's git submodules in each worktree, or leave it out.`,
        }),
      );

const inside = (parent: string, child: string) => {
  const path = relative(parent, child);
  return !path.startsWith("..") && !isAbsolute(path);
};

/**
 * Reads the app config from a listed config's metadata. `app.root` is the app's folder relative
 * to the root of the repository under test, wherever the config file is.
 */
export const readAppConfig = Effect.fn("readAppConfig")(function* (
  metadata: Readonly<Record<string, unknown>>,
  configFile: string,
  repoRoot: string,
) {
  const app = metadata[appMetadataKey];
  if (typeof app !== "object" || app === null) {
    return yield* Effect.fail(
      new ConfigError({
        config: configFile,
        detail: "it names no app. Build it with defineScenarioConfig({ app: { root, start, ready } }) from scenario-prover/harness.",
      }),
    );
  }
  const fields = app as Record<string, unknown>;
  // One command, or several processes by name; the harness checks each process when it starts them.
  const start = fields.start;
  const named = typeof start === "object" && start !== null && !Array.isArray(start) && Object.keys(start).length > 0;
  if (!named && (typeof start !== "string" || start === "")) {
    return yield* Effect.fail(
      new ConfigError({
        config: configFile,
        detail: 'app.start is not set: set it to the command that starts the server, e.g. "npm start".',
      }),
    );
  }
  yield* variableNames(fields, configFile);
  yield* routeValue(fields.route, configFile);
  yield* warmValue(fields.ready, configFile);
  const root = (yield* optionalString(fields.root, "root", configFile)) ?? ".";
  const appDir = resolve(repoRoot, root);
  if (isAbsolute(root) || !inside(repoRoot, appDir)) {
    return yield* Effect.fail(
      new ConfigError({
        config: configFile,
        detail: `app.root ${JSON.stringify(root)} is not a folder inside the repository ${repoRoot}; set it to the app's folder relative to the repository's root (e.g. "." or "apps/web").`,
      }),
    );
  }
  return {
    root: normalize(relative(repoRoot, appDir)).replace(/^\.$/, ""),
    install: yield* installValue(fields.install, configFile),
    build: yield* optionalString(fields.build, "build", configFile),
    submodules: yield* submodulesValue(fields.submodules, configFile),
  } satisfies AppConfig;
});

/** A timeout of the config's `proof` (from ProofMetadata), in ms; undefined when the config sets none. */
const readProofTimeout = (key: "expectTimeout" | "actionTimeout") =>
  Effect.fn(`readProof.${key}`)(function* (metadata: Readonly<Record<string, unknown>>, configFile: string) {
    const proof = metadata[proofMetadataKey];
    const value = typeof proof === "object" && proof !== null ? (proof as Record<string, unknown>)[key] : undefined;
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
      return yield* Effect.fail(
        new ConfigError({
          config: configFile,
          detail: `proof.${key} is ${JSON.stringify(value)}; set it to a whole number of milliseconds, e.g. 3000, or leave it out.`,
        }),
      );
    }
    return value;
  });

/** The config's `proof.expectTimeout`, in ms; undefined when the config sets none. */
export const readProofExpectTimeout = readProofTimeout("expectTimeout");

/** The config's `proof.actionTimeout`, in ms; undefined when the config sets none (the harness reads it; the prover checks it). */
export const readProofActionTimeout = readProofTimeout("actionTimeout");
