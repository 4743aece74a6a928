import * as Effect from "effect/Effect";
import * as FiberSet from "effect/FiberSet";
import { WebSocketServer } from "ws";
import { controlPrefix } from "../http/control.ts";
import { mismatchBody } from "../http/handle-request.ts";
import type { UpgradeHandler } from "../http/listen.ts";
import type { HttpRequest } from "../http/read-request.ts";
import type { WebSocketProviderFormat } from "../providers/provider-format.ts";
import type { ReplayRuntime } from "../runtime/replay-runtime.ts";
import type { ResponseSink } from "../runtime/response-sink.ts";
import type { HttpRun } from "../wire/http-answer.ts";
import { takeConnection, type Connection } from "./connection.ts";
import { refuseUpgrade } from "./refuse-upgrade.ts";
import { messageRequest, openingRequest } from "./websocket-request.ts";

/** Plays answer lines on one connection: a message as one JSON text message, a fail as the refused handshake, a disconnect as the dropped connection. */
const connectionSink = (connection: Connection): ResponseSink<HttpRun> => ({
  send: (run) =>
    Effect.forEach(
      run,
      (part) => {
        switch (part.type) {
          case "emit_inbound":
            return Object.hasOwn(part, "message") ? connection.send(part.message) : Effect.void;
          case "fail":
            return Effect.sync(() => connection.refuse(part.status, part.body, part.headers));
          case "disconnect":
            return Effect.sync(() => connection.drop());
          default:
            // HTTP frames and exit: the transport rules keep them out of a WebSocket transcript.
            return Effect.void;
        }
      },
      { discard: true },
    ),
  // An answer that sent nothing still opens its connection.
  end: connection.open,
});

/**
 * Serves the WebSocket connections of a WebSocket provider's transcript. Opening a connection is
 * matched against the transcript's `request` expectations and its answer opens it (or refuses
 * it); each message the app sends on it is matched against the `message` expectations, and its
 * answer goes back on the same connection. A message the transcript did not expect is answered
 * with the profile's `answerMismatch`; an opening it did not expect is refused 400 with the
 * mismatch, as an HTTP request is. The handler lasts until the connection has closed and its
 * answers have played.
 */
export const serveWebSocket = (runtime: ReplayRuntime<HttpRequest, HttpRun>, format: WebSocketProviderFormat): UpgradeHandler => {
  const server = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
  return (incoming, tcp, head) => {
    if ((incoming.url ?? "/").startsWith(controlPrefix)) {
      return Effect.sync(() =>
        refuseUpgrade(tcp, 404, {
          error: {
            type: "replay_unknown_control_route",
            message: `${controlPrefix} routes are plain HTTP requests, not WebSocket connections`,
          },
        }),
      );
    }
    const opening = openingRequest(incoming);
    return Effect.scoped(
      Effect.gen(function* () {
        const fibers = yield* FiberSet.make<void, never>();
        const run = yield* FiberSet.runtime(fibers)<never>();
        const serveMessage = (text: string): Effect.Effect<void> => {
          const request = messageRequest(opening.path, text);
          return runtime.serve(request, sink).pipe(
            Effect.catchTag("ReplayMismatchError", (error) => {
              const answer = format.answerMismatch(request.body, error);
              return answer === undefined ? Effect.void : connection.send(answer);
            }),
          );
        };
        const connection = yield* Effect.acquireRelease(
          Effect.sync(() => takeConnection(server, incoming, tcp, head, (text) => run(serveMessage(text)))),
          (taken) => Effect.sync(() => taken.destroy()),
        );
        const sink = connectionSink(connection);
        yield* runtime
          .serve(opening, sink)
          .pipe(
            Effect.catchTag("ReplayMismatchError", (error) =>
              Effect.sync(() => connection.refuse(400, mismatchBody(runtime.transcript.meta.provider, opening, error))),
            ),
          );
        yield* connection.closed;
        yield* FiberSet.awaitEmpty(fibers);
      }),
    );
  };
};
