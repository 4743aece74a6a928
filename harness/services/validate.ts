import type { ScenarioAppConfig, ServiceConfig } from "../config.ts";
import { HarnessError } from "../errors.ts";
import { kindFields } from "./registry.ts";

/** Names a service may not have: the placeholders of the config's own values. */
const reservedNames = ["replay", "port", "home", "replayCommand", "replayExecutable"];
/** A service's name: a letter, then letters, digits, _ or -. */
const namePattern = /^[A-Za-z][\w-]*$/;
/** A PostgreSQL user or database name the harness makes (letters, digits, _; at most 63). */
const sqlNamePattern = /^[A-Za-z_][\w]{0,62}$/;

const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

/** The names `app.start` gives its processes, when it names several (an object of them). */
function processNames(app: ScenarioAppConfig): ReadonlyArray<string> {
  const start: unknown = app.start;
  return typeof start === "object" && start !== null ? Object.keys(start) : [];
}

function checkPostgres(field: string, service: Readonly<Record<string, unknown>>): void {
  for (const name of ["database", "user"]) {
    const value = service[name];
    if (value !== undefined && (typeof value !== "string" || !sqlNamePattern.test(value))) {
      throw new HarnessError(
        "config",
        `${field}.${name} is ${shown(value)}: set it to a name of letters, digits and _ (at most 63), e.g. "app".`,
      );
    }
  }
  for (const name of ["password", "bin"]) {
    const value = service[name];
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      throw new HarnessError("config", `${field}.${name} is ${shown(value)}: set it to a non-empty string, or leave it out.`);
    }
  }
}

function checkCommand(field: string, service: Readonly<Record<string, unknown>>): void {
  if (typeof service.command !== "string" || service.command.trim() === "") {
    throw new HarnessError(
      "config",
      `${field}.command is ${shown(service.command)}: set it to the shell command that starts it, e.g. "node mock-api.js --port {port}".`,
    );
  }
  const ready = service.ready;
  const readyOk =
    typeof ready === "object" &&
    ready !== null &&
    (("path" in ready && typeof ready.path === "string" && ready.path.startsWith("/")) ||
      ("log" in ready && (typeof ready.log === "string" || ready.log instanceof RegExp)));
  if (!readyOk) {
    throw new HarnessError(
      "config",
      `${field}.ready is ${shown(ready)}: set it to { path: "/health" } (a path answering once it is up) or { log: /ready/ } (a line it prints).`,
    );
  }
  if (service.url !== undefined && typeof service.url !== "string") {
    throw new HarnessError(
      "config",
      `${field}.url is ${shown(service.url)}: set it to its address, e.g. "http://127.0.0.1:{port}", or leave it out.`,
    );
  }
}

/**
 * `app.services` checked, as [name, config] pairs: each an object of a known kind with only its kind's fields, named so
 * its placeholders cannot be mistaken (not `replay`, not a process of `app.start`). Refused before anything starts.
 */
export function servicesOf(app: ScenarioAppConfig, kinds: ReadonlyArray<string>): ReadonlyArray<readonly [string, ServiceConfig]> {
  const services: unknown = app.services;
  if (services === undefined) return [];
  if (typeof services !== "object" || services === null || Array.isArray(services)) {
    throw new HarnessError(
      "config",
      `app.services is ${shown(services)}: set it to an object of services by name, e.g. { postgres: { kind: "postgres" } }.`,
    );
  }
  const processes = processNames(app);
  return Object.entries(services).map(([name, service]: [string, unknown]) => {
    const field = `app.services.${name}`;
    if (!namePattern.test(name)) {
      throw new HarnessError(
        "config",
        `${field}: "${name}" is not a service name: name it with a letter, then letters, digits, _ or -, e.g. "postgres".`,
      );
    }
    if (reservedNames.includes(name)) {
      throw new HarnessError(
        "config",
        `${field}: "${name}" is the name of the config's own {${name}} placeholder: name the service otherwise, e.g. "${name}-service".`,
      );
    }
    if (processes.includes(name)) {
      throw new HarnessError(
        "config",
        `${field}: "${name}" names a process of app.start too, and {${name}.url} would mean either: rename one of them.`,
      );
    }
    if (typeof service !== "object" || service === null || Array.isArray(service)) {
      throw new HarnessError("config", `${field} is ${shown(service)}: set it to an object with its kind, e.g. { kind: "postgres" }.`);
    }
    const entries = service as Readonly<Record<string, unknown>>;
    const kind = entries.kind;
    if (typeof kind !== "string" || !kinds.includes(kind)) {
      throw new HarnessError(
        "config",
        `${field}.kind is ${shown(kind)}: set it to one of ${kinds.map((known) => `"${known}"`).join(", ")}.`,
      );
    }
    const fields = kindFields[kind];
    if (fields !== undefined) {
      const unknown = Object.keys(entries).find((key) => key !== "kind" && !fields.includes(key));
      if (unknown !== undefined) {
        throw new HarnessError(
          "config",
          `${field}.${unknown} is not a setting of a ${kind} service: remove it, or use one of ${fields.join(", ")}.`,
        );
      }
    }
    if (kind === "postgres") checkPostgres(field, entries);
    if (kind === "command") checkCommand(field, entries);
    return [name, service as ServiceConfig] as const;
  });
}

/** `app.prepare` as a list of commands, checked: a command or a list of them, none empty. */
export function prepareCommands(app: ScenarioAppConfig): ReadonlyArray<string> {
  const prepare: unknown = app.prepare;
  if (prepare === undefined) return [];
  const commands = typeof prepare === "string" ? [prepare] : prepare;
  if (Array.isArray(commands) && commands.every((command) => typeof command === "string" && command.trim() !== ""))
    return commands as string[];
  throw new HarnessError(
    "config",
    `app.prepare is ${shown(prepare)}: set it to a shell command, or a list of them run in order, e.g. "npx drizzle-kit migrate".`,
  );
}
