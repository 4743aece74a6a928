import { tmpdir } from "node:os";
import { routedHostsOf, type Provider } from "../../replay-agent/index.ts";
import type { RouteConfig } from "../config.ts";
import { HarnessError } from "../errors.ts";
import { offMachine, offMachineProblem } from "../../common/route-hosts.ts";
import { startRoute, type Route, type RouteTarget } from "./start-route.ts";

/** One of the test's replay agents, as the route sees it. */
export interface RoutedAgent {
  /** Its transcript's name; "" for a test given one transcript. */
  readonly name: string;
  /** Its base URL; undefined for a stdio peer, which no host reaches. */
  readonly url: string | undefined;
  readonly provider: Provider;
}

/**
 * The hosts sent to each agent: the config's list goes to the first (the `agent` fixture's own), its lists by name to
 * the agents of those names, and every other agent gets its provider's hosts.
 */
export function routeTargets(config: true | RouteConfig, agents: readonly RoutedAgent[]): RouteTarget[] {
  const hosts = config === true ? undefined : config.hosts;
  return agents.flatMap((agent, index): RouteTarget[] => {
    if (agent.url === undefined) return [];
    const given =
      hosts === undefined
        ? undefined
        : Array.isArray(hosts)
          ? index === 0
            ? hosts
            : undefined
          : (hosts as Readonly<Record<string, readonly string[]>>)[agent.name];
    return [{ hosts: given ?? routedHostsOf(agent.provider), target: agent.url }];
  });
}

/** Starts the route a config's `app.route` asks for, to the test's agents; a refused setting is a config error. */
export async function startAppRoute(config: true | RouteConfig, agents: readonly RoutedAgent[]): Promise<Route> {
  const allowed = config === true ? [] : (config.allow ?? []);
  const away = await offMachine(allowed);
  if (away.length > 0) {
    throw new HarnessError("config", offMachineProblem(away));
  }
  return startRoute({ routes: routeTargets(config, agents), allowed, dir: tmpdir() });
}
