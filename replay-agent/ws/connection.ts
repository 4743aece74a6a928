import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import { WebSocket, type RawData, type WebSocketServer } from "ws";
import { afterWrite } from "../wire/turn-loop.ts";
import { refuseUpgrade } from "./refuse-upgrade.ts";

/**
 * One connection the app opens, from its upgrade request until its TCP connection closes. Its
 * handshake stays unanswered until its answer opens it (its first message, or its end) or
 * refuses it (a `fail`), so a `pause` or `delay` before the first message holds the app's
 * socket in CONNECTING.
 */
export interface Connection {
  /** Completes the handshake if it is still unanswered: the app's socket opens. */
  readonly open: Effect.Effect<void>;
  /** Opens the connection if need be and sends `message` as one JSON text message; completes once the socket has taken it, at once when the connection is gone. */
  readonly send: (message: unknown) => Effect.Effect<void>;
  /** Refuses a handshake still unanswered with an HTTP error response. */
  readonly refuse: (status: number, body: unknown, headers?: Readonly<Record<string, string>>) => void;
  /**
   * Ends the TCP connection after what was sent: before the handshake the app gets no answer;
   * after it no close frame, so the app's socket reports 1006 (closed abnormally).
   */
  readonly drop: () => void;
  /** Destroys the connection at once, when the server closes. */
  readonly destroy: () => void;
  /** Completes once the TCP connection has closed. */
  readonly closed: Effect.Effect<void>;
}

type State = { readonly kind: "unanswered" } | { readonly kind: "open"; readonly socket: WebSocket } | { readonly kind: "gone" };

/** A message's text, whatever frame type the app sent it in. */
export const textOf = (data: RawData): string =>
  Buffer.isBuffer(data)
    ? data.toString("utf8")
    : Array.isArray(data)
      ? Buffer.concat(data).toString("utf8")
      : Buffer.from(data).toString("utf8");

/** Takes over the TCP connection of `request`; each message the app sends once it is open goes to `onMessage`, in order. */
export const takeConnection = (
  server: WebSocketServer,
  request: IncomingMessage,
  tcp: Duplex,
  head: Buffer,
  onMessage: (text: string) => void,
): Connection => {
  let state: State = { kind: "unanswered" };
  const closed = Deferred.makeUnsafe<void>();
  // An error on the connection is followed by its close, which `closed` reports.
  tcp.on("error", () => {});
  tcp.once("close", () => {
    state = { kind: "gone" };
    Deferred.doneUnsafe(closed, Effect.void);
  });
  const open = Effect.sync(() => {
    if (state.kind !== "unanswered") return;
    state = { kind: "gone" };
    if (!tcp.writable) return;
    // ws completes a valid handshake synchronously (there is no verifyClient), or answers an invalid one 400 itself.
    server.handleUpgrade(request, tcp, head, (socket) => {
      state = { kind: "open", socket };
      socket.on("error", () => {});
      socket.on("message", (data) => onMessage(textOf(data)));
    });
  });
  const send = (message: unknown): Effect.Effect<void> =>
    Effect.andThen(
      open,
      Effect.callback<void>((resume) => {
        if (state.kind !== "open" || state.socket.readyState !== WebSocket.OPEN) return resume(Effect.void);
        state.socket.send(JSON.stringify(message), () => resume(Effect.void));
      }).pipe(Effect.andThen(afterWrite)),
    );
  return {
    open,
    send,
    refuse: (status, body, headers) => {
      if (state.kind !== "unanswered") return;
      state = { kind: "gone" };
      refuseUpgrade(tcp, status, body, headers);
    },
    drop: () => {
      state = { kind: "gone" };
      tcp.end();
    },
    destroy: () => {
      state = { kind: "gone" };
      tcp.destroy();
    },
    closed: Deferred.await(closed),
  };
};
