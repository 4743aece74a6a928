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

/** A transcript served over HTTP until its scope closes. */
export interface ServedTranscript {
  readonly url: string;
  readonly runtime: ReplayRuntime<HttpRequest>;
}

/** Serves `transcript` on 127.0.0.1 (`port` 0 or absent picks a free port) in its provider's wire format, its answers encoded before it listens. */
export const serveTranscript = Effect.fn("serveTranscript")(function* (
  transcript: Transcript,
  options: { readonly port?: number | undefined } = {},
): Effect.fn.Return<ServedTranscript, ListenError | WrongTransportError, Scope.Scope> {
  yield* servedFormatFor(transcript);
  const runtime = yield* makeReplayRuntime<HttpRequest, HttpRun>(transcript, prepareHttpRunOf(transcript));
  const handle = handleRequest(runtime);
  // HTTP/2 too: the AWS SDK's default client speaks cleartext HTTP/2 to an http:// endpoint.
  const { port } = yield* listenHttp(options.port ?? 0, handle, { http2: handle });
  return { url: `http://127.0.0.1:${port}`, runtime };
});
