import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/** Whether an address is on this machine's loopback. */
export const isLoopback = (address: string): boolean =>
  address === "::1" || (isIP(address.replace(/^::ffff:/, "")) === 4 && address.replace(/^::ffff:/, "").startsWith("127."));

/**
 * The allowed hosts that are not on this machine, each with why: the route passes through only services on the loopback
 * (nothing leaves the machine). A name under `.localhost` always is; another with `*` cannot be looked up, so is refused.
 */
export async function offMachine(hosts: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    hosts.map(async (host) => {
      const name = forHostName(host);
      // A name under .localhost is the loopback's by definition (RFC 6761), whatever this machine's resolver says.
      if (name === "localhost" || name.endsWith(".localhost")) return [];
      if (name.includes("*")) return [`${host} (a pattern outside .localhost)`];
      if (isIP(name.replace(/^\[|\]$/g, "")) !== 0)
        return isLoopback(name.replace(/^\[|\]$/g, "")) ? [] : [`${host} (not a loopback address)`];
      const addresses = await lookup(name, { all: true }).catch(() => []);
      if (addresses.length === 0) return [`${host} (no address found for ${name})`];
      const away = addresses.filter(({ address }) => !isLoopback(address));
      return away.length === 0 ? [] : [`${host} (${name} is ${away.map(({ address }) => address).join(", ")})`];
    }),
  );
  return found.flat();
}

/** The name part of a route host (`name`, `name:port`, `[::1]` or `[::1]:port`). */
export function forHostName(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const at = host.lastIndexOf(":");
  return at > 0 && !host.slice(0, at).includes(":") ? host.slice(0, at) : host;
}

/** What a config whose `app.route.allow` names `away` (offMachine's answer) is told. */
export const offMachineProblem = (away: readonly string[]): string =>
  `app.route.allow names hosts that are not on this machine: ${away.join("; ")}. ` +
  "The route passes through only services on the loopback, so that nothing leaves the machine: remove them, or serve them here.";
