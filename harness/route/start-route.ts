import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { join } from "node:path";
import { generateCACertificate, getLocal, type CompletedRequest } from "mockttp";
import { preloadFile } from "./preload-file.ts";

export interface RouteOptions {
  /** The hosts whose requests go to the replay agent, whatever URL the app holds: `api.anthropic.com`, … */
  readonly hosts: readonly string[];
  /** The replay agent's base URL (`http://127.0.0.1:<port>`), where routed requests are sent unchanged. */
  readonly target: string;
  /** Further hosts the app may reach through the route, passed through to them as they are. */
  readonly allowed?: readonly string[];
  /** A folder the route keeps its files in until it stops (its certificate authority, the Node preload). */
  readonly dir: string;
}

/** A request the route refused: its host was neither routed nor allowed. */
export interface StrayCall {
  /** The host the app called, with its port when not the scheme's default. */
  readonly host: string;
  readonly method: string;
  /** The path and query. */
  readonly path: string;
  /** When the request arrived (ISO 8601). */
  readonly time: string;
}

export interface Route {
  /** The proxy's URL on the loopback. */
  readonly url: string;
  /** The variables the app is started with so that its calls take the route. */
  readonly env: Readonly<Record<string, string>>;
  /** The stray calls refused so far, in order. */
  strays(): readonly StrayCall[];
  /** Closes the proxy and removes the route's files. */
  stop(): Promise<void>;
}

/** The app's own loopback traffic, which never goes through the route: each runtime reads one of the forms of ::1. */
const noProxy = "localhost,127.0.0.1,::1,[::1]";

/** Whether a client address is on this machine's loopback (IPv4, IPv6 or IPv4-mapped). */
function fromLoopback(request: CompletedRequest): boolean {
  const address = (request.remoteIpAddress ?? "").replace(/^::ffff:/, "");
  return address === "::1" || (isIP(address) === 4 && address.startsWith("127."));
}

/** The stray call a refused request is recorded as. */
function strayCall(request: CompletedRequest): StrayCall {
  const url = new URL(request.url);
  return {
    host: url.host,
    method: request.method,
    path: url.pathname + url.search,
    time: new Date(request.timingEvents.startTime).toISOString(),
  };
}

/**
 * Starts the route: an HTTP(S) proxy (HTTP Toolkit's mockttp) that terminates TLS with a
 * certificate authority made for this run, sends the requests for `hosts` to `target` with their
 * method, path, query, headers and body unchanged and streams the answers back as they come, passes
 * `allowed` hosts through, and refuses any other request with a 502 naming it, recorded as a stray
 * call. Requests from outside the loopback are refused too (mockttp listens on every interface).
 */
export async function startRoute(options: RouteOptions): Promise<Route> {
  const target = new URL(options.target);
  const dir = await mkdtemp(join(options.dir, "route-"));
  const strays: StrayCall[] = [];
  const ca = await generateCACertificate({ subject: { commonName: "scenario-prover route CA (this run only)" } });
  const server = getLocal({ https: ca, recordTraffic: false });
  const stop = async (): Promise<void> => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const caFile = join(dir, "ca.pem");
    const [preload] = await Promise.all([preloadFile(dir), writeFile(caFile, ca.cert)]);
    await server.start(0);
    const toReplay = {
      setProtocol: target.protocol === "https:" ? "https" : "http",
      replaceHost: { targetHost: target.host, updateHostHeader: false },
    } as const;
    for (const host of options.hosts) {
      await server.forAnyRequest().forHostname(host).matching(fromLoopback).thenPassThrough({ transformRequest: toReplay });
    }
    for (const host of options.allowed ?? []) {
      await server.forAnyRequest().forHostname(host).matching(fromLoopback).thenPassThrough();
    }
    await server.forUnmatchedRequest().thenCallback((request) => {
      const stray = strayCall(request);
      strays.push(stray);
      return {
        statusCode: 502,
        headers: { "content-type": "text/plain; charset=utf-8" },
        body: `scenario-prover route: refused ${stray.method} ${stray.host}${stray.path}: ${stray.host} is neither routed to the replay agent nor allowed.\n`,
      };
    });
    const url = `http://127.0.0.1:${server.port}`;
    const env = {
      HTTPS_PROXY: url,
      HTTP_PROXY: url,
      NO_PROXY: noProxy,
      // curl reads only the lower-case http_proxy, and Python prefers the lower-case names when both are set.
      https_proxy: url,
      http_proxy: url,
      no_proxy: noProxy,
      NODE_EXTRA_CA_CERTS: caFile,
      SSL_CERT_FILE: caFile,
      REQUESTS_CA_BUNDLE: caFile,
      CURL_CA_BUNDLE: caFile,
      NODE_OPTIONS: `--require ${JSON.stringify(preload)}`,
    };
    return { url, env, strays: () => [...strays], stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
