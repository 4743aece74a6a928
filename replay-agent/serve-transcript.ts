import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { ListenError, WrongTransportError } from "./errors.ts";
import { handleRequest } from "./http/handle-request.ts";
import { listenHttp } from "./http/listen.ts";
import type { HttpRequest } from "./http/read-request.ts";
import { servedFormatFor } from "./providers/registry.ts";
import { makeReplayRuntime } from "./runtime/make-replay-runtime.ts";
import type { ReplayRuntime } from "./runtime/replay-runtime.ts";
import type { Transcript } from "./transcript/transcript.ts";
import { prepareHttpRunOf, type HttpRun } from "./wire/http-answer.ts";
import { serveWebSocket } from "./ws/serve-websocket.ts";
import { matchWebSocket } from "./ws/websocket-request.ts";

/** A transcript served over HTTP (and WebSocket, for a WebSocket provider) until its scope closes. */
export interface ServedTranscript {
  readonly url: string;
  readonly runtime: ReplayRuntime<HttpRequest>;
}

/**
 * Serves `transcript` on 127.0.0.1 (`port` 0 or absent picks a free port) in its provider's wire
 * format, its answers encoded before it listens. A WebSocket provider's connections are upgrades
 * on the same port; its plain HTTP requests (other than the control routes) match nothing.
 */
export const serveTranscript = Effect.fn("serveTranscript")(function* (
  transcript: Transcript,
  options: { readonly port?: number | undefined } = {},
): Effect.fn.Return<ServedTranscript, ListenError | WrongTransportError, Scope.Scope> {
  const served = yield* servedFormatFor(transcript);
  const webSocket = served.transport === "websocket" ? served.format : undefined;
  const match = webSocket === undefined ? undefined : matchWebSocket;
  const runtime = yield* makeReplayRuntime<HttpRequest, HttpRun>(transcript, prepareHttpRunOf(transcript), match);
  const handle = handleRequest(runtime);
  const upgrade = webSocket === undefined ? undefined : serveWebSocket(runtime, webSocket);
  // HTTP/2 too: the AWS SDK's default client speaks cleartext HTTP/2 to an http:// endpoint.
  const { port } = yield* listenHttp(options.port ?? 0, handle, { upgrade, http2: handle });
  return { url: `http://127.0.0.1:${port}`, runtime };
});
