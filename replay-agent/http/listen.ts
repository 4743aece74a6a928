import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import * as Effect from "effect/Effect";
import * as FiberSet from "effect/FiberSet";
import type * as Scope from "effect/Scope";
import { ListenError } from "../errors.ts";
import { sharedPort, type SharedPort } from "./h2c.ts";

/** Handles one request as an Effect; it runs with the services of the scope that opened the server (Clock included). */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Effect.Effect<void>;

/** Handles one upgrade request (a WebSocket opening) as an Effect that lasts as long as the connection it takes over, and ends it when interrupted. */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => Effect.Effect<void>;

/** Handles one request that came over cleartext HTTP/2. */
export type Http2RequestHandler = (request: Http2ServerRequest, response: Http2ServerResponse) => Effect.Effect<void>;

/** What a server serves besides HTTP/1.1 requests: WebSocket upgrades, cleartext HTTP/2 on the same port. */
export interface ListenOptions {
  readonly upgrade?: UpgradeHandler | undefined;
  readonly http2?: Http2RequestHandler | undefined;
}

const open = (port: number, run: (effect: Effect.Effect<void>) => unknown, handle: RequestHandler, options: ListenOptions) =>
  Effect.callback<SharedPort, ListenError>((resume) => {
    // Nagle off: each write goes out as it is made, as a provider's stream does.
    const http1 = createServer({ noDelay: true }, (request, response) => {
      run(handle(request, response));
    });
    const { upgrade, http2 } = options;
    if (upgrade !== undefined)
      http1.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => run(upgrade(request, socket, head)));
    const listening: SharedPort =
      http2 === undefined
        ? { server: http1, closeConnections: () => http1.closeAllConnections() }
        : sharedPort(http1, (request, response) => {
            run(http2(request, response));
          });
    listening.server.once("error", (error) => resume(Effect.fail(new ListenError({ port, detail: error.message }))));
    listening.server.listen(port, "127.0.0.1", () => resume(Effect.succeed(listening)));
  });

const close = ({ server, closeConnections }: SharedPort) =>
  Effect.callback<void>((resume) => {
    server.close(() => resume(Effect.void));
    closeConnections();
  });

/**
 * Serves HTTP on 127.0.0.1:`port` (0 picks a free port) until the scope closes; with `upgrade`,
 * WebSocket upgrades too (without it, node's default applies), and with `http2`, cleartext HTTP/2
 * on the same port. Closing first interrupts the requests and upgraded connections in flight, so
 * each ends its answer, then closes every connection.
 */
export const listenHttp = Effect.fn("listenHttp")(function* (
  port: number,
  handle: RequestHandler,
  options: ListenOptions = {},
): Effect.fn.Return<{ readonly port: number }, ListenError, Scope.Scope> {
  const fibers = yield* FiberSet.make<void, never>();
  const run = yield* FiberSet.runtime(fibers)<never>();
  const listening = yield* Effect.acquireRelease(open(port, run, handle, options), (listening) =>
    FiberSet.clear(fibers).pipe(Effect.andThen(close(listening))),
  );
  const address: AddressInfo | string | null = listening.server.address();
  return { port: typeof address === "object" && address !== null ? address.port : port };
});
