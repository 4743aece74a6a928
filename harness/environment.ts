import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { appTempEnv } from "../common/contract.ts";
import type { ScenarioAppConfig } from "./config.ts";
import { HarnessError } from "./errors.ts";

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
  readonly replayExecutable: string | undefined;
  /** The base URL of each of the test's HTTP replay agents by its transcript's name, for `{replay.<name>}`. */
  readonly replayNamed?: Readonly<Record<string, string>> | undefined;
  /** Where each of several processes of `app.start` is reached, by its name, for `{<name>.url}` and `{<name>.port}`. */
  readonly processes?: Readonly<Record<string, { readonly url: string; readonly port: number }>> | undefined;
  /** The route's variables (`app.route`): over the config's, its NODE_OPTIONS before theirs. */
  readonly routeEnv?: Readonly<Record<string, string>> | undefined;
  /** The values of each service of `app.services` by its name, for `{<name>.<field>}`. */
  readonly services?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined;
  readonly developer?: NodeJS.ProcessEnv;
}

export interface Substitutions {
  readonly port: number;
  readonly home: string;
  /** The HTTP replay agent's base URL. */
  readonly replay: string | undefined;
  /** The shell command that starts the stdio replay peer. */
  readonly replayCommand: string | undefined;
  /** The path of the stdio replay peer's launcher, for apps that take their agent's binary as a path. */
  readonly replayExecutable: string | undefined;
  /** The base URL of each of the test's HTTP replay agents by its transcript's name (`{replay.<name>}`). */
  readonly replayNamed?: Readonly<Record<string, string>> | undefined;
  /** The values of each service of `app.services` by its name (`{<name>.url}`, `{<name>.port}`, …). */
  readonly services?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined;
  /** Where each of several processes of `app.start` is reached, by its name (`{<name>.url}`, `{<name>.port}`). */
  readonly processes?: Readonly<Record<string, { readonly url: string; readonly port: number }>> | undefined;
}

/** Where a placeholder for a replay agent the test does not have points: nothing listens there, so a call fails at once. */
const noReplay = "http://127.0.0.1:9";

/**
 * Fills `{port}`, `{home}`, `{replay}`, `{replay.<name>}`, `{replayCommand}`, `{replayExecutable}`, each process's
 * `{<name>.url}` and `{<name>.port}`, and a service's `{<name>.<field>}` into a config value. A `{replay.<name>}` that
 * names none of the test's transcripts points where `{replay}` does without one, so a config can name a transcript only
 * some of its tests have.
 */
export function substitute(text: string, values: Substitutions): string {
  const named = values.replayNamed ?? {};
  const processes = values.processes ?? {};
  const services = values.services ?? {};
  return text
    .replaceAll(/\{replay\.([^{}]+)\}/g, (_, name: string) => named[name] ?? noReplay)
    .replaceAll(/\{([^{}.]+)\.(url|port)\}/g, (whole, name: string, field: "url" | "port") =>
      Object.hasOwn(processes, name) ? String(processes[name]?.[field]) : whole,
    )
    .replaceAll(/\{([A-Za-z][\w-]*)\.([A-Za-z]+)\}/g, (placeholder, name: string, field: string) => {
      const service = services[name];
      if (service === undefined) return placeholder;
      const value = service[field];
      if (value !== undefined) return value;
      throw new HarnessError(
        "config",
        `${placeholder} names no value of service "${name}": use one of ${Object.keys(service)
          .map((known) => `{${name}.${known}}`)
          .join(", ")}.`,
      );
    })
    .replaceAll("{port}", String(values.port))
    .replaceAll("{home}", values.home)
    .replaceAll("{replayCommand}", values.replayCommand ?? "false")
    .replaceAll("{replayExecutable}", values.replayExecutable ?? "false")
    .replaceAll("{replay}", values.replay ?? noReplay);
}

/**
 * The app's whole environment, from an allowlist so that the developer's keys, tokens and state
 * never reach it: the basics (PATH, LANG, LC_*, TERM, SHELL, USER, TMPDIR), the config's `passEnv`,
 * `provider` and `env`, a fresh HOME and XDG directories, PORT, its home and GIT_CONFIG_NOSYSTEM.
 * No npm_config_* or PNPM_* variable passes: package caches are shared through `homeFiles`.
 */
export function appEnvironment(input: AppEnvironmentInput): Record<string, string> {
  const developer = input.developer ?? process.env;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(developer)) {
    if (value === undefined) continue;
    if (allowlisted.includes(name) || name.startsWith("LC_")) env[name] = value;
  }
  // The TMPDIR the app would have outside a proof, so its caches there (tsx's) stay warm across runs.
  const appTemp = developer[appTempEnv];
  if (appTemp !== undefined && appTemp !== "") env.TMPDIR = appTemp;
  for (const name of input.app.passEnv ?? []) {
    const value = developer[name];
    if (value !== undefined) env[name] = value;
  }

  const { home, appHome } = input.dirs;
  env.HOME = home;
  env.XDG_CONFIG_HOME = join(home, ".config");
  env.XDG_DATA_HOME = join(home, ".local", "share");
  env.XDG_STATE_HOME = join(home, ".local", "state");
  env.XDG_CACHE_HOME = join(home, ".cache");
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.PORT = String(input.port);
  if (input.app.homeEnv !== undefined) env[input.app.homeEnv] = appHome;

  const values = {
    port: input.port,
    home: appHome,
    replay: input.replayUrl,
    replayCommand: input.replayCommand,
    replayExecutable: input.replayExecutable,
    replayNamed: input.replayNamed,
    services: input.services,
    processes: input.processes,
  };
  for (const [name, value] of Object.entries({ ...input.app.provider, ...input.app.env })) {
    env[name] = substitute(value, values);
  }
  for (const [name, value] of Object.entries(input.routeEnv ?? {})) {
    const own = env[name];
    env[name] = name === "NODE_OPTIONS" && own !== undefined && own !== "" ? `${value} ${own}` : value;
  }
  return env;
}

/** A setting's value in an ini-style file (`name=value` lines, as in .npmrc), or undefined. */
function iniValue(file: string, name: string): string | undefined {
  try {
    const line = readFileSync(file, "utf8")
      .split(/\r?\n/)
      .find((text) => new RegExp(`^\\s*${name}\\s*=`).test(text));
    return line?.slice(line.indexOf("=") + 1).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A top-level `key: value` of a YAML file (pnpm's global config.yaml), or undefined. */
function yamlValue(file: string, key: string): string | undefined {
  try {
    const match = new RegExp(`^${key}:\\s*(.+?)\\s*$`, "m").exec(readFileSync(file, "utf8"));
    return match?.[1]?.replace(/^["']|["']$/g, "") || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Files for the fresh HOME (paths relative to it) pointing npm's cache and pnpm's store at the
 * developer's. Only the locations are copied: the developer's own .npmrc can hold tokens.
 */
export function homeFiles(developer: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const developerHome = developer.HOME ?? homedir();
  const developerConfig = developer.XDG_CONFIG_HOME ?? join(developerHome, ".config");
  const developerData = developer.XDG_DATA_HOME ?? join(developerHome, ".local", "share");
  const npmCache = (developer.npm_config_cache ?? iniValue(join(developerHome, ".npmrc"), "cache") ?? join(developerHome, ".npm")).replace(
    /^~(?=\/)/,
    developerHome,
  );
  const pnpmStore =
    developer.npm_config_store_dir ??
    developer.pnpm_config_store_dir ??
    yamlValue(join(developerConfig, "pnpm", "config.yaml"), "storeDir") ??
    join(developerData, "pnpm", "store");
  return {
    ".npmrc": `cache=${npmCache}\nupdate-notifier=false\nfund=false\naudit=false\n`,
    ".config/pnpm/config.yaml": `storeDir: ${JSON.stringify(pnpmStore)}\n`,
  };
}
