import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import * as Effect from "effect/Effect";
import * as FiberSet from "effect/FiberSet";
import type * as Scope from "effect/Scope";
import { ListenError } from "../errors.ts";

/** Handles one request as an Effect; it runs with the services of the scope that opened the server (Clock included). */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Effect.Effect<void>;

/** Handles one upgrade request (a WebSocket opening) as an Effect that lasts as long as the connection it takes over, and ends it when interrupted. */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => Effect.Effect<void>;

const open = (port: number, run: (effect: Effect.Effect<void>) => unknown, handle: RequestHandler, upgrade: UpgradeHandler | undefined) =>
  Effect.callback<Server, ListenError>((resume) => {
    // Nagle off: each write goes out as it is made, as a provider's stream does.
    const server = createServer({ noDelay: true }, (request, response) => {
      run(handle(request, response));
    });
    if (upgrade !== undefined)
      server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => run(upgrade(request, socket, head)));
    server.once("error", (error) => resume(Effect.fail(new ListenError({ port, detail: error.message }))));
    server.listen(port, "127.0.0.1", () => resume(Effect.succeed(server)));
  });

const close = (server: Server) =>
  Effect.callback<void>((resume) => {
    server.close(() => resume(Effect.void));
    server.closeAllConnections();
  });

/**
 * Serves HTTP on 127.0.0.1:`port` (0 picks a free port) until the scope closes, and WebSocket
 * upgrades with `upgrade` when given (without it, node's default applies). Closing first
 * interrupts the requests and upgraded connections in flight, so each ends its answer, then
 * closes every connection.
 */
export const listenHttp = Effect.fn("listenHttp")(function* (
  port: number,
  handle: RequestHandler,
  upgrade?: UpgradeHandler,
): Effect.fn.Return<{ readonly port: number }, ListenError, Scope.Scope> {
  const fibers = yield* FiberSet.make<void, never>();
  const run = yield* FiberSet.runtime(fibers)<never>();
  const server = yield* Effect.acquireRelease(open(port, run, handle, upgrade), (server) =>
    FiberSet.clear(fibers).pipe(Effect.andThen(close(server))),
  );
  const address: AddressInfo | string | null = server.address();
  return { port: typeof address === "object" && address !== null ? address.port : port };
});
