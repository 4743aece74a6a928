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

/**
 * A note for a config whose `app.route.hosts` lists hosts by transcript name, when a name matches none of the test's
 * transcripts while one of them has no list (it gets its provider's hosts): a misspelt name. Undefined otherwise: a name
 * of another test's transcripts, with each of this test's given its list or meant to take its provider's, says nothing.
 */
export function unmatchedHostNames(config: true | RouteConfig, agents: readonly RoutedAgent[]): string | undefined {
  const hosts = config === true ? undefined : config.hosts;
  if (hosts === undefined || Array.isArray(hosts)) return undefined;
  const names = agents.map(({ name }) => name).filter((name) => name !== "");
  const unmatched = Object.keys(hosts).filter((key) => !names.includes(key));
  const unlisted = names.filter((name) => !(name in hosts));
  if (unmatched.length === 0 || unlisted.length === 0) return undefined;
  const quoted = (list: readonly string[]) => list.map((name) => JSON.stringify(name)).join(", ");
  return (
    `app.route.hosts names ${quoted(unmatched)}, which is none of this test's transcripts (${names.join(", ")}), ` +
    `while ${quoted(unlisted)} ${unlisted.length === 1 ? "gets its" : "get their"} provider's hosts, as no list names ` +
    `${unlisted.length === 1 ? "it" : "them"}: if a name is misspelt, write it as the transcript's name in test.use.`
  );
}

/** Starts the route a config's `app.route` asks for, to the test's agents; a refused setting is a config error. */
export async function startAppRoute(config: true | RouteConfig, agents: readonly RoutedAgent[]): Promise<Route> {
  const allowed = config === true ? [] : (config.allow ?? []);
  const away = await offMachine(allowed);
  if (away.length > 0) {
    throw new HarnessError("config", offMachineProblem(away));
  }
  const unmatched = unmatchedHostNames(config, agents);
  if (unmatched !== undefined) process.stderr.write(`scenario-prover route: ${unmatched}\n`);
  return startRoute({ routes: routeTargets(config, agents), allowed, dir: tmpdir() });
}
