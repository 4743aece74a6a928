import { dirname, isAbsolute, normalize, relative, resolve } from "node:path";
import { Effect } from "effect";
import { ConfigError } from "../errors.ts";

/** What the prover needs of the config's `app` (stored by defineScenarioConfig in `metadata.scenarioApp`). */
export interface AppConfig {
  /** The app's folder relative to the root of the repository under test ("" for the root). */
  readonly root: string;
  readonly install: string | undefined;
  readonly build: string | undefined;
}

const optionalString = (value: unknown, key: string, config: string): Effect.Effect<string | undefined, ConfigError> => {
  if (value === undefined || value === null) return Effect.succeed(undefined);
  if (typeof value === "string") return Effect.succeed(value);
  return Effect.fail(new ConfigError({ config, detail: `app.${key} must be a string; got ${JSON.stringify(value)}.` }));
};

const inside = (parent: string, child: string) => {
  const path = relative(parent, child);
  return !path.startsWith("..") && !isAbsolute(path);
};

/**
 * Reads the app config from a listed config's metadata. `app.root` is relative to the config
 * file; when the config lives outside the repository under test (`--repo` elsewhere), it is
 * relative to that repository's root.
 */
export const readAppConfig = Effect.fn("readAppConfig")(function* (
  metadata: Readonly<Record<string, unknown>>,
  configFile: string,
  repoRoot: string,
) {
  const app = metadata.scenarioApp;
  if (typeof app !== "object" || app === null) {
    return yield* Effect.fail(
      new ConfigError({
        config: configFile,
        detail: "it names no app. Build it with defineScenarioConfig({ app: { root, start, ready } }) from scenario-prover/harness.",
      }),
    );
  }
  const fields = app as Record<string, unknown>;
  if (typeof fields.start !== "string" || fields.start === "") {
    return yield* Effect.fail(
      new ConfigError({ config: configFile, detail: 'app.start is not set: set it to the command that starts the server, e.g. "npm start".' }),
    );
  }
  const root = (yield* optionalString(fields.root, "root", configFile)) ?? ".";
  const configDir = dirname(configFile);
  const appDir = inside(repoRoot, configDir) ? resolve(configDir, root) : resolve(repoRoot, root);
  if (!inside(repoRoot, appDir)) {
    return yield* Effect.fail(
      new ConfigError({
        config: configFile,
        detail: `app.root ${JSON.stringify(root)} points outside the repository ${repoRoot}; set it to the app's folder inside it.`,
      }),
    );
  }
  return {
    root: normalize(relative(repoRoot, appDir)).replace(/^\.$/, ""),
    install: yield* optionalString(fields.install, "install", configFile),
    build: yield* optionalString(fields.build, "build", configFile),
  } satisfies AppConfig;
});
