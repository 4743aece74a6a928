import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import * as Effect from "effect/Effect";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { UpstreamError } from "../errors.ts";
import { textOf } from "../ws/connection.ts";
import { refuseUpgrade } from "../ws/refuse-upgrade.ts";
import { describe, targetOf } from "./exchange-context.ts";
import { isKeptHeader, isTransferHeader } from "./redact.ts";

/** What the recorder does with what one session relays; each is called as the thing happens. */
export interface SessionRecording {
  readonly upstream: URL;
  /** The headers carrying the recorder's own key, which replace the app's. */
  readonly credentials: Readonly<Record<string, string>>;
  /** The environment variable the recorder's key comes from, named when the upstream refuses it. */
  readonly keyVariable: string;
  /** The connection is about to be opened upstream: the time its answer takes counts from here. */
  readonly connecting?: () => void;
  /** The upstream accepted the connection and the app's socket is open: the session's first line. */
  readonly opened: (userAgent: string | undefined) => void;
  /** A message the app sent, relayed upstream. */
  readonly fromApp: (text: string) => void;
  /** A message the upstream sent, relayed to the app. */
  readonly fromServer: (text: string) => void;
  /** The upstream ended an open session with `code` (1006: it dropped the connection without a close frame). */
  readonly closedByServer: (code: number, reason: string) => void;
  /** Nothing more of this session will be recorded: it was refused, failed, or one side closed it. */
  readonly ended: () => void;
  readonly log: (line: string) => void;
  /** A string safe to print: secrets cut out. */
  readonly redact: (text: string) => string;
}

/** The WebSocket subprotocols the app asked for, but for any that carries a credential (a key in a subprotocol, as browsers must send it). */
const protocolsOf = (incoming: IncomingMessage): ReadonlyArray<string> =>
  (incoming.headers["sec-websocket-protocol"] ?? "")
    .split(",")
    .map((protocol) => protocol.trim())
    .filter((protocol) => protocol !== "" && isKeptHeader(protocol));

/**
 * The app's headers as the provider gets them: its credentials replaced by the recorder's, the
 * handshake's own headers left to the WebSocket client that opens the upstream connection.
 */
const upstreamHeaders = (incoming: IncomingMessage, credentials: Readonly<Record<string, string>>): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || !isKeptHeader(name) || name.startsWith("sec-websocket-")) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { ...headers, ...credentials };
};

/** Passes the upstream's refusal of the upgrade on to the app as it came: status, headers but transfer details and cookies, and body. */
const relayRefusal = (tcp: Duplex, response: IncomingMessage, body: Buffer): void => {
  if (!tcp.writable) return;
  const status = response.statusCode ?? 502;
  const headers = Object.entries(response.headers).flatMap(([name, value]) =>
    value === undefined || isTransferHeader(name) || name === "set-cookie"
      ? []
      : [`${name}: ${Array.isArray(value) ? value.join(", ") : value}`],
  );
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`, ...headers, `content-length: ${body.length}`, "connection: close"];
  tcp.end(Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), body]));
};

/** Closes `socket` as its peer closed the other side: with the same code, without a close frame for 1006, with none for 1005. */
const closeLike = (socket: WebSocket, code: number, reason: Buffer): void => {
  if (code === 1006) return socket.terminate();
  const sendable = (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005) || (code >= 3000 && code <= 4999);
  if (sendable) socket.close(code, reason);
  else socket.close();
};

/** The subprotocol the upstream chose for each app's upgrade request, which the app's handshake then selects. */
const selectedProtocols = new WeakMap<IncomingMessage, string>();

/** The server that completes the app's handshakes, once their connection is open upstream: with the subprotocol the upstream chose, if any. */
export const sessionServer = (): WebSocketServer =>
  new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    handleProtocols: (_offered, request) => selectedProtocols.get(request) || false,
  });

/** How long a session stopped by the recorder waits for each side's close handshake before it drops the connection. */
const closeGrace = 1000;

/**
 * Relays one WebSocket connection the app opens: opens it upstream at the same path with the
 * recorder's key, then completes the app's handshake, relays each message both ways at once
 * (calling `recording` as it does) and closes each side as the other closed. An upstream that
 * refuses the upgrade has its answer passed to the app; one that cannot be reached gets the app
 * a 502. Lasts until both connections have closed; interrupted (the recorder stopping), it closes
 * both with 1001 (going away).
 */
export const relaySession = (
  server: WebSocketServer,
  recording: SessionRecording,
  incoming: IncomingMessage,
  tcp: Duplex,
  head: Buffer,
): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    const path = incoming.url ?? "/";
    const target = targetOf(recording.upstream, path);
    const shown = recording.redact(target.href);
    recording.connecting?.();
    const upstream = new WebSocket(target, [...protocolsOf(incoming)], {
      headers: upstreamHeaders(incoming, recording.credentials),
      perMessageDeflate: false,
    });
    let app: WebSocket | undefined;
    let stopping = false;
    let upstreamClosed = false;
    let tcpClosed = false;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      recording.ended();
    };
    const finish = () => {
      if (upstreamClosed && tcpClosed) resume(Effect.void);
    };

    tcp.on("error", () => {});
    tcp.once("close", () => {
      tcpClosed = true;
      end();
      if (upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
      else if (app === undefined && upstream.readyState === WebSocket.OPEN) upstream.close(1001);
      finish();
    });

    upstream.on("error", (error) => {
      if (app !== undefined || ended || stopping) return;
      const failure = new UpstreamError({ url: shown, detail: describe(error) });
      recording.log(`replay-agent: ${failure.message}`);
      refuseUpgrade(tcp, 502, { error: { type: "replay_upstream_error", message: failure.message } });
      end();
    });
    upstream.once("unexpected-response", (_request, response) => {
      const chunks: Array<Buffer> = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("end", () => {
        const body = Buffer.concat(chunks);
        const status = response.statusCode ?? 0;
        const hint = status === 401 || status === 403 ? ` Check the key in ${recording.keyVariable}.` : "";
        recording.log(
          `replay-agent: ${shown} refused the connection with ${status} ${STATUS_CODES[status] ?? ""}: ${recording.redact(body.toString("utf8")).slice(0, 300)}. The app got the same answer; nothing was recorded for it.${hint}`,
        );
        relayRefusal(tcp, response, body);
        end();
        upstream.terminate();
      });
    });
    upstream.once("open", () => {
      if (!tcp.writable) return upstream.terminate();
      selectedProtocols.set(incoming, upstream.protocol);
      // ws completes a valid handshake synchronously; an invalid one it answers 400 itself, and the app's connection closes.
      server.handleUpgrade(incoming, tcp, head, (socket) => {
        app = socket;
        recording.opened(incoming.headers["user-agent"]);
        socket.on("error", () => {});
        socket.on("message", (data: RawData, isBinary: boolean) => {
          if (upstream.readyState !== WebSocket.OPEN) return;
          recording.fromApp(textOf(data));
          upstream.send(data, { binary: isBinary });
        });
        socket.once("close", (code: number, reason: Buffer) => {
          end();
          if (upstream.readyState === WebSocket.OPEN) closeLike(upstream, code, reason);
        });
      });
    });
    upstream.on("message", (data: RawData, isBinary: boolean) => {
      if (app?.readyState !== WebSocket.OPEN) return;
      recording.fromServer(textOf(data));
      app.send(data, { binary: isBinary });
    });
    upstream.once("close", (code: number, reason: Buffer) => {
      upstreamClosed = true;
      if (app?.readyState === WebSocket.OPEN && !stopping) {
        recording.closedByServer(code, reason.toString("utf8"));
        end();
        closeLike(app, code, reason);
      }
      finish();
    });

    return Effect.callback<void>((stopped) => {
      stopping = true;
      end();
      const drop = setTimeout(() => {
        app?.terminate();
        upstream.terminate();
        tcp.destroy();
      }, closeGrace);
      const closed = () => {
        if (!upstreamClosed || !tcpClosed) return;
        clearTimeout(drop);
        stopped(Effect.void);
      };
      upstream.once("close", closed);
      tcp.once("close", closed);
      if (app === undefined) tcp.destroy();
      else app.close(1001, "replay-agent record stopped");
      if (upstream.readyState === WebSocket.OPEN) upstream.close(1001, "replay-agent record stopped");
      else upstream.terminate();
      closed();
    });
  });
