import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import { MissingKeyError, type ListenError, type RecordOutputError } from "../errors.ts";
import { listenHttp, type UpgradeHandler } from "../http/listen.ts";
import { parseBody } from "../http/read-request.ts";
import { webSocketFormats } from "../providers/registry.ts";
import type { WebSocketProvider } from "../transcript/providers.ts";
import { refuseUpgrade } from "../ws/refuse-upgrade.ts";
import { recordedMeta } from "./meta-line.ts";
import { makeRedactor, secretValues } from "./redact.ts";
import { relaySession, sessionServer, type SessionRecording } from "./relay-session.ts";
import { delayLines, makeTimeline, now, type Timeline } from "./timeline.ts";
import { openTranscriptFile, type RecordedLine } from "./transcript-file.ts";
import { webSocketMessagePatterns } from "./websocket-rules.ts";

export interface WebSocketRecordOptions {
  readonly provider: WebSocketProvider;
  readonly upstream: URL;
  readonly out: string;
  readonly port: number;
  /** Where the real provider's key is read from (the recorder's own environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: (line: string) => void;
  /** Keep the time the server took before each of its messages as delay lines (default true). */
  readonly timing?: boolean;
}

/** How much a WebSocket recording holds so far. */
export interface WebSocketRecordingCounts {
  readonly connections: number;
  readonly app: number;
  readonly server: number;
}

/** A WebSocket recorder listening until its scope closes. */
export interface WebSocketRecorder {
  /** "http://127.0.0.1:<port>": the app's base URL is this with the provider's path prefix (`/v1`). */
  readonly url: string;
  readonly counts: () => WebSocketRecordingCounts;
}

/** The model a connection's query names (`?model=gpt-realtime`), if it names one. */
const modelOf = (path: string): string | undefined => new URL(path, "http://127.0.0.1").searchParams.get("model") ?? undefined;

/**
 * Records a real WebSocket provider: listens on 127.0.0.1, opens each connection the app opens
 * upstream at the same path and query with the key from `env`, relays every message both ways at
 * once, and appends each to `out` as it is relayed: the connection as an expect_outbound `request`
 * (with the meta line before the first), the app's messages as expect_outbound `message`
 * patterns, the upstream's as emit_inbound messages, an upstream that ends the session as a
 * disconnect; unless `timing` is false, a server's message after a delay line of the time since the
 * connection was opened upstream or the app's last message, what the replay agent counts from. That key and
 * every other secret-looking value of `env` are cut out. One session is
 * recorded at a time: a transcript plays one lane's answers in order, so the lines of two open
 * sessions could not be told apart.
 */
export const recordWebSocket = Effect.fn("recordWebSocket")(function* (
  options: WebSocketRecordOptions,
): Effect.fn.Return<WebSocketRecorder, MissingKeyError | RecordOutputError | ListenError, Scope.Scope> {
  const { provider, log } = options;
  const { credentials } = webSocketFormats[provider];
  const key = options.env[credentials.env];
  if (key === undefined || key === "") return yield* new MissingKeyError({ provider, env: credentials.env });
  const redactor = makeRedactor([key, ...secretValues(options.env)]);
  const file = yield* openTranscriptFile(options.out);
  const pattern = webSocketMessagePatterns[provider];
  const counts = { connections: 0, app: 0, server: 0 };
  const append = (line: RecordedLine) =>
    Effect.runSync(file.append(line).pipe(Effect.catch((error) => Effect.sync(() => log(`replay-agent: ${error.message}`)))));

  /** The path of the session being recorded, while one is. */
  let recording: string | undefined;
  /** The time kept since the connection was opened upstream or the app's last message: the server's messages answer it. */
  let timeline: Timeline | undefined;
  const answerStarts = () => {
    if (options.timing !== false) timeline = makeTimeline(Effect.runSync(now));
  };
  const session = (path: string): SessionRecording => ({
    upstream: options.upstream,
    credentials: credentials.headers(key),
    keyVariable: credentials.env,
    connecting: answerStarts,
    opened: (userAgent) => {
      if (counts.connections === 0) append(Effect.runSync(recordedMeta(provider, { model: modelOf(path), client: userAgent }, redactor)));
      counts.connections++;
      append({ type: "expect_outbound", request: { method: "GET", path: redactor.pattern(path) } });
    },
    fromApp: (text) => {
      counts.app++;
      append({ type: "expect_outbound", message: pattern(redactor.pattern(parseBody(text) ?? text)) });
      answerStarts();
    },
    fromServer: (text) => {
      const came = Effect.runSync(now);
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        log(
          `replay-agent: the upstream sent a message that is not JSON, not recorded (the replay agent sends JSON messages only): ${redactor.text(text).slice(0, 120)}`,
        );
        return;
      }
      counts.server++;
      const ms = timeline?.until(came) ?? 0;
      delayLines(ms).forEach(append);
      append({ type: "emit_inbound", message: redactor.value(message) });
    },
    closedByServer: (code, reason) => {
      append({ type: "disconnect" });
      const how =
        code === 1006 ? "dropped the session" : `closed the session with code ${code}${reason === "" ? "" : ` (${redactor.text(reason)})`}`;
      log(
        `replay-agent: the upstream ${how} opened at ${redactor.text(path)}, recorded as {"type":"disconnect"}: the replay agent drops the connection there, and the app's socket closes with 1006`,
      );
    },
    ended: () => {
      if (recording === path) recording = undefined;
    },
    log,
    redact: redactor.text,
  });

  const server = sessionServer();
  const upgrade: UpgradeHandler = (incoming, tcp, head) => {
    const path = incoming.url ?? "/";
    const open = recording;
    if (open !== undefined) {
      return Effect.sync(() => {
        const message = `replay-agent record records one session at a time, and the session opened at ${redactor.text(open)} is still open: a transcript plays its answers in order, so the lines of two sessions at once could not be told apart. Close the first session before opening another`;
        log(`replay-agent: refused the connection to ${redactor.text(path)} with 409: ${message}`);
        refuseUpgrade(tcp, 409, { error: { type: "replay_record_busy", message } });
      });
    }
    recording = path;
    return relaySession(server, session(path), incoming, tcp, head);
  };
  const { port } = yield* listenHttp(
    options.port,
    (request, response) =>
      Effect.sync(() => {
        request.resume();
        response.writeHead(426, { "content-type": "application/json", upgrade: "websocket" });
        response.end(
          JSON.stringify({
            error: {
              type: "replay_record_websocket_only",
              message: `replay-agent record --provider ${provider} records WebSocket connections only, and ${request.method ?? "GET"} ${redactor.text(request.url ?? "/")} is a plain HTTP request. Open a WebSocket, or record HTTP requests with a recorder of an HTTP provider`,
            },
          }),
        );
      }),
    { upgrade },
  );
  return { url: `http://127.0.0.1:${port}`, counts: () => ({ ...counts }) };
});

/** What `record` prints when a WebSocket recording stops. */
export const formatWebSocketRecordSummary = (out: string, counts: WebSocketRecordingCounts): string =>
  counts.connections === 0
    ? `replay-agent stopped: no connection was recorded, so ${out} was not written`
    : `replay-agent stopped: recorded ${counts.connections} connection${counts.connections === 1 ? "" : "s"}, ${counts.app} message${counts.app === 1 ? "" : "s"} from the app and ${counts.server} from the server to ${out}`;
