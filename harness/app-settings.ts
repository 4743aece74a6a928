import { defaultAppHost, defaultReadyTimeoutMs, type ReadyCheck, type ScenarioAppConfig } from "./config.ts";
import { warmProblem } from "../common/ready-warm.ts";
import { HarnessError } from "./errors.ts";

/** A host name (labels of letters, digits and -), an IPv4 address, or an IPv6 address in brackets. */
const hostPattern = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$|^\[[0-9A-Fa-f:.]+\]$/;

/** `app.host`: the host the browser opens the app at, default 127.0.0.1. */
export function appHost(app: ScenarioAppConfig): string {
  const host: unknown = app.host ?? defaultAppHost;
  if (typeof host === "string" && hostPattern.test(host)) return host;
  throw new HarnessError(
    "config",
    `app.host is ${JSON.stringify(host)}: set it to the host name the browser opens the app at, without scheme, port or path, ` +
      `e.g. "localhost" (for Next.js dev), or leave it out for "${defaultAppHost}".`,
  );
}

/** `app.ready.timeout` (or a process's, at `field`): boot's budget in ms, default 60 000. */
export function readyTimeoutMs(ready: ReadyCheck | undefined, field = "app.ready"): number {
  const timeout: unknown = ready?.timeout ?? defaultReadyTimeoutMs;
  if (typeof timeout === "number" && Number.isInteger(timeout) && timeout > 0) return timeout;
  throw new HarnessError(
    "config",
    `${field}.timeout is ${JSON.stringify(timeout)}: set it to a whole number of milliseconds, e.g. 120000, or leave it out for ${defaultReadyTimeoutMs}.`,
  );
}

/** `app.interactive`: the expression `app.open()` waits to be truthy in the page, if the config sets one. */
export function interactiveExpression(app: ScenarioAppConfig): string | undefined {
  const expression: unknown = app.interactive;
  if (expression === undefined || (typeof expression === "string" && expression.trim() !== "")) return expression;
  throw new HarnessError(
    "config",
    `app.interactive is ${JSON.stringify(expression) ?? String(expression)}: set it to a JavaScript expression, as a string, that is truthy in the page once it is interactive, ` +
      `e.g. "window.appReady === true", or leave it out to have app.open() return once the page has loaded.`,
  );
}

/** `app.ready.warm` (or a process's, at `field`): the paths asked for once it is ready, before the test; none when the config names none. */
export function warmPaths(ready: ReadyCheck | undefined, field = "app.ready"): ReadonlyArray<string> {
  const warm: unknown = ready?.warm;
  const problem = warmProblem(warm);
  if (problem !== undefined) throw new HarnessError("config", `${field}.warm ${problem}.`);
  return (warm as ReadonlyArray<string> | undefined) ?? [];
}
