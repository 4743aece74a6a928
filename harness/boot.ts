import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AppServer } from "./app-server.ts";
import { appHost } from "./app-settings.ts";
import { appProcesses, startProcesses, type ProcessAddress, type ProcessOutput, type StartedProcess } from "./app-processes.ts";
import type { ScenarioAppConfig } from "./config.ts";
import { appEnvironment, homeFiles, substitute, type AppDirectories, type Substitutions } from "./environment.ts";
import { appServices } from "./services/app-services.ts";
import type { StartedServices } from "./services/start-services.ts";

/** What the app's commands are given of the test's replay agents and route (all undefined without them). */
export interface BootAgents {
  readonly replayUrl: string | undefined;
  readonly replayCommand: string | undefined;
  readonly replayExecutable: string | undefined;
  /** The base URL of each of the test's HTTP replay agents by its transcript's name, for `{replay.<name>}`. */
  readonly replayNamed?: Readonly<Record<string, string>>;
  /** The route's variables (`app.route`), over the config's. */
  readonly routeEnv?: Readonly<Record<string, string>> | undefined;
}

/** The app up: its services ready, app.prepare run, every process of app.start ready. */
export interface BootedApp {
  /** The folder of the app's home, its services' data and its logs; removed by the caller once stopped. */
  readonly base: string;
  readonly dirs: AppDirectories;
  /** The process the browser opens. */
  readonly server: AppServer;
  readonly started: ReadonlyArray<StartedProcess>;
  readonly services: StartedServices;
  /** The first process's environment and placeholders, for the app's CLI. */
  readonly env: Readonly<Record<string, string>>;
  readonly values: Substitutions;
  /** Each process's output; what the services and prepare printed first, when they printed anything (a single command is then "app"). */
  outputs(): ReadonlyArray<ProcessOutput>;
  /** Stops every process, then every service, and resolves once they are gone (the folder stays). */
  stop(): Promise<void>;
}

/**
 * Boots the app of `config` in `root` as a test has it: a fresh home in a folder of its own, `app.services` started,
 * `app.prepare` run with their placeholders, then every process of `app.start`, each on its own port, until ready. A bad
 * services, prepare or start setting is refused before anything starts; on any failure what started is stopped and the
 * folder removed.
 */
export async function bootApp(config: ScenarioAppConfig, root: string, agents: BootAgents): Promise<BootedApp> {
  const processes = appProcesses(config, Object.keys(config.services ?? {}));
  const serviceSetup = appServices(config, root);
  const base = await mkdtemp(join(tmpdir(), "scenario-app-"));
  const dirs = { home: join(base, "home"), appHome: join(base, "app-home") };
  await Promise.all([mkdir(dirs.home), mkdir(dirs.appHome)]);
  for (const [path, text] of Object.entries(homeFiles())) {
    await mkdir(dirname(join(dirs.home, path)), { recursive: true });
    await writeFile(join(dirs.home, path), text);
  }
  const { replayUrl, replayCommand, replayExecutable, replayNamed, routeEnv } = agents;
  const substitutionsWith = (
    port: number,
    values: Substitutions["services"],
    addresses: Readonly<Record<string, ProcessAddress>>,
  ): Substitutions => ({
    port,
    home: dirs.appHome,
    replay: replayUrl,
    replayCommand,
    replayExecutable,
    replayNamed,
    services: values,
    processes: addresses,
  });
  // Per process and port: each process has its own port (PORT, {port}), every process's address (none for a single
  // command) and every service's values.
  const environmentWith = (port: number, values: Substitutions["services"], addresses: Readonly<Record<string, ProcessAddress>>) =>
    appEnvironment({
      app: config,
      dirs,
      port,
      replayUrl,
      replayCommand,
      replayExecutable,
      replayNamed,
      routeEnv,
      services: values,
      processes: addresses,
    });
  const withoutPort = ({ PORT: _port, ...env }: Record<string, string>) => env;
  let services: StartedServices;
  try {
    // Services start first, then app.prepare: its environment (PORT aside) holds their values, and no process's address yet.
    services = await serviceSetup.start({
      base,
      serviceEnv: withoutPort(
        appEnvironment({
          app: { start: config.start, passEnv: config.passEnv },
          dirs,
          port: 0,
          replayUrl,
          replayCommand,
          replayExecutable,
        }),
      ),
      appEnv: (values) => withoutPort(environmentWith(0, values, {})),
      fill: (text, values) => substitute(text, substitutionsWith(0, values, {})),
    });
  } catch (error) {
    await rm(base, { recursive: true, force: true });
    throw error;
  }
  const substitutions = (port: number, addresses: Readonly<Record<string, ProcessAddress>>) =>
    substitutionsWith(port, services.values, addresses);
  const environment = (port: number, addresses: Readonly<Record<string, ProcessAddress>>) =>
    environmentWith(port, services.values, addresses);

  let boot: Awaited<ReturnType<typeof startProcesses>>;
  try {
    boot = await startProcesses({
      processes,
      launch: (one, port, addresses) => ({
        command: substitute(one.command, substitutions(port, addresses)),
        env: environment(port, addresses),
      }),
      cwd: root,
      logDir: base,
      // The server was reached at 127.0.0.1 to see it ready; the browser opens it at the config's host.
      firstUrl: (port) => `http://${appHost(config)}:${port}`,
    });
  } catch (error) {
    await services.stop();
    await rm(base, { recursive: true, force: true });
    throw error;
  }
  const { started, addresses } = boot;
  const [first] = started;
  if (first === undefined) throw new Error("startProcesses gave no process");
  return {
    base,
    dirs,
    server: first.server,
    started,
    services,
    env: environment(first.server.port, addresses),
    values: substitutions(first.server.port, addresses),
    outputs: () => {
      const own = started.map(({ name, server: one }) => ({ name, text: one.logs() }));
      const prepared = services.logs();
      if (prepared === "") return own;
      return [{ name: "services and prepare", text: prepared }, ...own.map((one) => (one.name === "" ? { ...one, name: "app" } : one))];
    },
    stop: async () => {
      try {
        await Promise.all(started.map((one) => one.server.stop()));
      } finally {
        await services.stop();
      }
    },
  };
}
