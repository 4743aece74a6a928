import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateCACertificate, getLocal, RulePriority, type CompletedRequest } from "mockttp";
import type { StrayCallMetadata } from "../../common/contract.ts";
import { forHostName, isLoopback } from "../../common/route-hosts.ts";
import { preloadFile } from "./preload-file.ts";

/** Hosts whose requests go to one replay agent, whatever URL the app holds. */
export interface RouteTarget {
  /** `api.anthropic.com`, `localhost:8080`, `bedrock-runtime.*.amazonaws.com` (`*` stands for one label of the name). */
  readonly hosts: readonly string[];
  /** The replay agent's base URL (`http://127.0.0.1:<port>`), where their requests are sent unchanged. */
  readonly target: string;
}

export interface RouteOptions {
  /** Each replay agent and the hosts sent to it; a host named twice goes to the first. */
  readonly routes: readonly RouteTarget[];
  /** Further hosts on this machine the app may reach through the route, passed through to them as they are. */
  readonly allowed?: readonly string[];
  /** A folder the route keeps its files in until it stops (its certificate authority, the Node preload). */
  readonly dir: string;
}

/** A request the route refused: its host was neither routed nor allowed. */
export type StrayCall = StrayCallMetadata;

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
  return isLoopback(request.remoteIpAddress ?? "");
}

/** The stray call a refused request is recorded as. */
function strayCall(request: CompletedRequest): StrayCall {
  const url = new URL(request.url);
  return {
    host: url.host,
    method: request.method,
    path: url.pathname + url.search,
    at: request.timingEvents.startTime,
  };
}

/** Whether a request is for `host` (`name` or `name:port`, `*` standing for one label of the name). */
export function forHost(host: string): (request: CompletedRequest) => boolean {
  const name = forHostName(host);
  const port = name === host ? undefined : host.slice(name.length + 1);
  const label = name
    .toLowerCase()
    .split(".")
    .map((part) => (part === "*" ? "[^.]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("\\.");
  const pattern = new RegExp(`^${label}$`);
  return (request) => {
    const url = new URL(request.url);
    const defaultPort = url.protocol === "https:" ? "443" : "80";
    return pattern.test(url.hostname.toLowerCase()) && (port === undefined || (url.port || defaultPort) === port);
  };
}

/** The route's certificate authority, made once in a process: a new key pair costs a few hundred ms of CPU. */
let authority: ReturnType<typeof generateCACertificate> | undefined;

/**
 * Starts the route: an HTTP(S) proxy (HTTP Toolkit's mockttp) that terminates TLS with a
 * certificate authority made for this run, sends the requests for `hosts` to `target` with their
 * method, path, query, headers and body unchanged and streams the answers back as they come (a
 * WebSocket upgrade too, then its messages both ways), passes `allowed` hosts through, and refuses
 * any other request or upgrade with a 502, recorded as a stray call. Requests from outside the
 * loopback are refused too (mockttp listens on every interface).
 */
export async function startRoute(options: RouteOptions): Promise<Route> {
  const dir = await mkdtemp(join(options.dir, "route-"));
  const strays: StrayCall[] = [];
  authority ??= generateCACertificate({ subject: { commonName: "scenario-prover route CA (this run only)" } });
  const ca = await authority;
  const server = getLocal({ https: ca, recordTraffic: false });
  const stop = async (): Promise<void> => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const caFile = join(dir, "ca.pem");
    const [preload] = await Promise.all([preloadFile(dir), writeFile(caFile, ca.cert)]);
    await server.start(0);
    // An HTTPS call to an IP address sends no server name, and mockttp's certificates name hosts only: the app's TLS
    // refuses the route's certificate before any request, so the refusal below never sees it. It is named here (with no
    // address: the handshake's failure does not carry the tunnel's). A named host's handshake gets its own certificate.
    await server.on("tls-client-error", (failure) => {
      if (failure.tlsMetadata.sniHostname !== undefined || !isLoopback(failure.remoteIpAddress ?? "")) return;
      strays.push({
        host: "an IP address",
        method: "CONNECT",
        path: "",
        at: failure.timingEvents.startTime,
        tlsFailure: failure.failureCause,
      });
    });
    for (const route of options.routes) {
      const target = new URL(route.target);
      const toReplay = {
        setProtocol: target.protocol === "https:" ? "https" : "http",
        replaceHost: { targetHost: target.host, updateHostHeader: false },
      } as const;
      const upgradeToReplay = { ...toReplay, setProtocol: target.protocol === "https:" ? "wss" : "ws" } as const;
      for (const host of route.hosts) {
        const isHost = forHost(host);
        const routed = (request: CompletedRequest): boolean => fromLoopback(request) && isHost(request);
        await server.forAnyRequest().matching(routed).thenPassThrough({ transformRequest: toReplay });
        await server.forAnyWebSocket().matching(routed).thenPassThrough({ transformRequest: upgradeToReplay });
      }
    }
    for (const host of options.allowed ?? []) {
      const isHost = forHost(host);
      const allowed = (request: CompletedRequest): boolean => fromLoopback(request) && isHost(request);
      await server.forAnyRequest().matching(allowed).thenPassThrough();
      await server.forAnyWebSocket().matching(allowed).thenPassThrough();
    }
    // mockttp's WebSocket rules have no callback step: its findMatchingRule calls a fallback rule's matcher once for each
    // upgrade that no other rule took, and once only, so the matcher records the stray.
    await server
      .forAnyWebSocket()
      .asPriority(RulePriority.FALLBACK)
      .matching((request) => {
        strays.push(strayCall(request));
        return true;
      })
      .thenRejectConnection(
        502,
        "Bad Gateway",
        { "content-type": "text/plain; charset=utf-8" },
        "scenario-prover route: refused a WebSocket upgrade: its host is neither routed to the replay agent nor allowed.\n",
      );
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
