import type { Detection } from "./detect.ts";
import type { ConfigValues } from "./templates.ts";
import { configFile } from "./write.ts";

const seconds = (ms: number) => `${ms / 1000}s`;

/** The path the app is served under; undefined when it has none or init could not read it. */
export const servedPath = (detection: Detection) => (detection.base?.kind === "path" ? detection.base.path : undefined);

/** The clause saying init could not read the base path; undefined when it could or there is none. */
function unreadableBase(detection: Detection): string | undefined {
  const base = detection.base;
  return base?.kind === "unreadable" ? `${base.key} in ${base.file} is \`${base.expression}\`, which init cannot read` : undefined;
}

/** The config values init chose from what it detected, with their reasons. */
export function configChoices(
  detection: Detection,
): Pick<
  ConfigValues,
  "start" | "startWhy" | "host" | "readyPath" | "readyPathWhy" | "basePathUnknown" | "timeouts" | "warm" | "services" | "processes"
> {
  const base = detection.base;
  return {
    start: detection.start.command,
    startWhy: detection.start.why,
    host: detection.host,
    readyPath: servedPath(detection) ?? "/",
    readyPathWhy: base?.kind === "path" ? `${base.key} in ${base.file}` : undefined,
    basePathUnknown:
      unreadableBase(detection) === undefined
        ? undefined
        : `${unreadableBase(detection)}: set ready.path and the example's app.open() to the path the app is served under.`,
    timeouts: detection.timeouts,
    warm: detection.warm,
    services: detection.services,
    processes: detection.processes,
  };
}

/** What init wrote for the app's databases and other processes, one line a choice with its reason, for the CLI to print. */
export function serviceChoiceLines(detection: Detection): string[] {
  const { services, processes } = detection;
  return [
    ...services.services.map(
      (service) =>
        `services.${service.name}: ${service.kind}${service.database === undefined ? "" : `, database ${service.database}`} (${service.why})`,
    ),
    ...services.prepare.map((line) => `prepare: ${line.command} (${line.why})`),
    ...services.env.map((line) => `env: ${line.name}: ${line.value} (${line.why})`),
    ...processes.processes.map(
      (line) =>
        `start.${line.name}: ${line.command} (${line.why}; ${line.ready === undefined ? "init found no line it logs once ready" : `ready when it logs /${line.ready.log}/, in ${line.ready.file}`})`,
    ),
  ];
}

/** Where the warmed routes come from and why, for the config's comment and init's output. */
export const warmWhy = (warm: NonNullable<Detection["warm"]>) =>
  `${warm.files.join(", ")}; ${warm.why}${warm.more === 0 ? "" : ` (${warm.more} more found: add the ones the scenarios call)`}`;

/** What init chose for the framework it recognised, one line a choice with its reason, for the CLI to print. */
export function choiceLines(detection: Detection): string[] {
  const { start, framework, base, host, timeouts, warm } = detection;
  const name = framework?.framework.name;
  const startLine = start.port.kind === "unknown" ? `could not tell how the server gets its port: ${start.port.why}` : start.why;
  const baseSetting = framework?.framework.base;
  const baseLine =
    baseSetting === undefined
      ? []
      : base === undefined
        ? [
            `base path: none (no ${baseSetting.within === undefined ? "" : `${baseSetting.within}.`}${baseSetting.key} in ${baseSetting.files.find((file) => framework?.why.includes(file)) ?? `the ${name} config`})`,
          ]
        : base.kind === "path"
          ? [`base path: ${base.path} (${base.key} in ${base.file})`]
          : [`base path: unknown (${unreadableBase(detection) ?? ""}; ready.path / assumes none)`];
  const path = servedPath(detection) ?? "/";
  const readyLine =
    framework === undefined
      ? []
      : timeouts === undefined
        ? [`ready: GET ${path} within the harness's default timeout (${name} has no long first compile)`]
        : [`ready: GET ${path} within ${seconds(timeouts.ready)}, each test within ${seconds(timeouts.test)} (${timeouts.why})`];
  return [
    ...(framework === undefined
      ? []
      : [`framework: ${framework.framework.name}${framework.version === undefined ? "" : ` ${framework.version}`} (${framework.why})`]),
    `start: ${start.command} (${startLine})`,
    ...(host === undefined ? [] : [`host: ${host.host} (${host.why})`]),
    ...baseLine,
    ...readyLine,
    ...(warm === undefined ? [] : [`warm: ${warm.paths.join(", ")} (${warmWhy(warm)})`]),
  ];
}

/** The note for a base path init could not read, naming the config file to edit. */
export function basePathNote(detection: Detection): string[] {
  const clause = unreadableBase(detection);
  return clause === undefined
    ? []
    : [`${clause}: set app.ready.path in ${configFile} and the example's app.open() to the path the app is served under.`];
}
