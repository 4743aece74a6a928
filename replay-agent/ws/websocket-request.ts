import type { IncomingMessage } from "node:http";
import { parseBody, type HttpRequest } from "../http/read-request.ts";
import type { MatchRequest } from "../runtime/make-replay-runtime.ts";
import { matchPattern } from "../runtime/pattern.ts";

/**
 * The method a message on a socket is listed with. What the app sends a WebSocket provider, as
 * the runtime matches it and `requests()` lists it: the connection it opens is its upgrade
 * request, `{ method: "GET", path, body: undefined }` (`path` with its query); a message it
 * sends on that connection is `{ method: "MESSAGE", path, body }`, `path` being the
 * connection's and `body` the message's JSON (its raw text when it is not JSON).
 */
export const messageMethod = "MESSAGE";

/** The requests that opened a connection: an upgrade, unlike a plain HTTP request of the same method and path. */
const openings = new WeakSet<HttpRequest>();

/** The request that opens a connection: the upgrade's method and path, query included. */
export const openingRequest = (request: IncomingMessage): HttpRequest => {
  const opening: HttpRequest = { method: request.method ?? "GET", path: request.url ?? "/", body: undefined };
  openings.add(opening);
  return opening;
};

/** One message the app sent on the connection it opened at `path`. */
export const messageRequest = (path: string, text: string): HttpRequest => ({ method: messageMethod, path, body: parseBody(text) });

/** What a request is, for a diff that says it came as the wrong kind. */
const kindOf = (request: HttpRequest): string => {
  if (openings.has(request)) return `the app opening a connection (${request.method} ${request.path})`;
  if (request.method === messageMethod) return `a message on the connection opened at ${request.path}`;
  return `a plain HTTP request ${request.method} ${request.path}, without a WebSocket upgrade`;
};

/**
 * Holds a WebSocket provider's request against an expect_outbound line: an opening against its
 * `request` pattern, a message's body against its `message` pattern; any other pairing differs
 * at the root, naming what came.
 */
export const matchWebSocket: MatchRequest<HttpRequest> = (expect, request) => {
  if (expect.request !== undefined) {
    return openings.has(request)
      ? matchPattern(expect.request, request)
      : [{ path: "", message: `expected the app to open a connection, got ${kindOf(request)}` }];
  }
  return request.method === messageMethod && !openings.has(request)
    ? matchPattern(expect.message, request.body)
    : [{ path: "", message: `expected a message on an open connection, got ${kindOf(request)}` }];
};
