import { homedir } from "node:os";
import { join } from "node:path";
import type { ScenarioAppConfig } from "./config.ts";

const allowlisted = ["PATH", "LANG", "TERM", "SHELL", "USER", "TMPDIR"];

export interface AppDirectories {
  /** Fresh HOME, with the XDG directories inside it. */
  readonly home: string;
  /** The app's own state directory (the config's `homeEnv`). */
  readonly appHome: string;
}

export interface AppEnvironmentInput {
  readonly app: ScenarioAppConfig;
  readonly dirs: AppDirectories;
  readonly port: number;
  readonly replayUrl: string | undefined;
  readonly replayCommand: string | undefined;
  readonly developer?: NodeJS.ProcessEnv;
}

export interface Substitutions {
  readonly port: number;
  readonly home: string;
  /** The HTTP replay agent's base URL. */
  readonly replay: string | undefined;
  /** The shell command that starts the stdio replay peer. */
  readonly replayCommand: string | undefined;
}

/** Fills `{port}`, `{home}`, `{replay}` and `{replayCommand}` into a config value. */
export function substitute(text: string, values: Substitutions): string {
  return text
    .replaceAll("{port}", String(values.port))
    .replaceAll("{home}", values.home)
    .replaceAll("{replayCommand}", values.replayCommand ?? "false")
    .replaceAll("{replay}", values.replay ?? "http://127.0.0.1:9");
}

/**
 * The app's whole environment, built from an allowlist rather than by removing what looks
 * secret: a scenario must be free and must not touch the developer's real state, so real
 * provider keys, tokens and config never reach the app. What it gets: the allowlisted
 * basics (PATH, LANG, LC_*, TERM, SHELL, USER, TMPDIR), what the config names, a fresh HOME
 * and XDG directories, its own home directory, GIT_CONFIG_NOSYSTEM, and provider variables
 * pointing at the replay agent. The package managers' cache and store stay the developer's,
 * so a fresh HOME never means a fresh download.
 */
export function appEnvironment(input: AppEnvironmentInput): Record<string, string> {
  const developer = input.developer ?? process.env;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(developer)) {
    if (value === undefined) continue;
    if (allowlisted.includes(name) || name.startsWith("LC_")) env[name] = value;
  }
  for (const name of input.app.passEnv ?? []) {
    const value = developer[name];
    if (value !== undefined) env[name] = value;
  }

  const developerHome = developer.HOME ?? homedir();
  const developerData = developer.XDG_DATA_HOME ?? join(developerHome, ".local", "share");
  env.npm_config_cache = developer.npm_config_cache ?? join(developerHome, ".npm");
  env.npm_config_store_dir = developer.npm_config_store_dir ?? join(developerData, "pnpm", "store");
  env.npm_config_update_notifier = "false";

  const { home, appHome } = input.dirs;
  env.HOME = home;
  env.XDG_CONFIG_HOME = join(home, ".config");
  env.XDG_DATA_HOME = join(home, ".local", "share");
  env.XDG_STATE_HOME = join(home, ".local", "state");
  env.XDG_CACHE_HOME = join(home, ".cache");
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.PORT = String(input.port);
  if (input.app.homeEnv !== undefined) env[input.app.homeEnv] = appHome;

  const values = { port: input.port, home: appHome, replay: input.replayUrl, replayCommand: input.replayCommand };
  for (const [name, value] of Object.entries({ ...input.app.provider, ...input.app.env })) {
    env[name] = substitute(value, values);
  }
  return env;
}
