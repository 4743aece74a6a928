import type { AppProcessConfig, ScenarioAppConfig, ServiceConfig } from "../../harness/index.ts";
import type { ConfigValues } from "./templates.ts";

/** What of the config init writes its try of the start boots, and what the try's line names beside the start. */
export interface TriedApp {
  /** app.start, app.ready, app.host, app.provider, app.services, app.prepare and app.env, as written. */
  readonly app: ScenarioAppConfig;
  /** Each thing started beside the start, e.g. "the service postgres", "app.prepare (npm run db:migrate)", "the process worker". */
  readonly beside: ReadonlyArray<string>;
}

/** The app init writes (see renderConfig), as an object its try boots as a test would: services, prepare, every process. */
export function triedApp(
  values: Pick<ConfigValues, "start" | "host" | "readyPath" | "timeouts" | "warm" | "services" | "processes">,
  provider: Readonly<Record<string, string>>,
): TriedApp {
  const { services, processes } = values;
  const others = processes.processes.map((line): [string, string | AppProcessConfig] => [
    line.name,
    line.ready === undefined ? line.command : { command: line.command, ready: { log: new RegExp(line.ready.log) } },
  ]);
  const app: ScenarioAppConfig = {
    start: others.length === 0 ? values.start : Object.fromEntries([[processes.web, values.start], ...others]),
    ...(values.host === undefined ? {} : { host: values.host.host }),
    ready: {
      path: values.readyPath,
      ...(values.timeouts === undefined ? {} : { timeout: values.timeouts.ready }),
      ...(values.warm === undefined ? {} : { warm: values.warm.paths }),
    },
    provider,
    ...(services.services.length === 0
      ? {}
      : {
          services: Object.fromEntries(
            services.services.map((service): [string, ServiceConfig] => [
              service.name,
              service.database === undefined ? { kind: service.kind } : { kind: service.kind, database: service.database },
            ]),
          ),
        }),
    ...(services.prepare.length === 0 ? {} : { prepare: services.prepare.map((line) => line.command) }),
    ...(services.env.length === 0 ? {} : { env: Object.fromEntries(services.env.map((line) => [line.name, line.value])) }),
  };
  const named = (one: string, several: string, names: ReadonlyArray<string>) =>
    names.length === 0 ? [] : [`the ${names.length === 1 ? one : several} ${names.join(", ")}`];
  return {
    app,
    beside: [
      ...named(
        "service",
        "services",
        services.services.map((service) => service.name),
      ),
      ...(services.prepare.length === 0 ? [] : [`app.prepare (${services.prepare.map((line) => line.command).join("; ")})`]),
      ...named(
        "process",
        "processes",
        processes.processes.map((line) => line.name),
      ),
    ],
  };
}
