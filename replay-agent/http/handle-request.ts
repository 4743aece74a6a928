import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import type { ReplayMismatchError } from "../errors.ts";
import type { MismatchDetails } from "../providers/provider-format.ts";
import { httpFormats } from "../providers/registry.ts";
import type { ReplayRuntime } from "../runtime/replay-runtime.ts";
import { requestExcerpt } from "../runtime/request-excerpt.ts";
import { isHttpProvider, type Provider } from "../transcript/providers.ts";
import { httpAnswerSink, type HttpRun } from "../wire/http-answer.ts";
import type { HttpResponseWriter } from "../wire/http-response.ts";
import { writeJsonResponse } from "../wire/json.ts";
import { controlPrefix, handleControl } from "./control.ts";
import { nodeResponseWriter } from "./node-response.ts";
import { readRequest, type HttpRequest } from "./read-request.ts";

/** The 400 body answering a request the transcript did not expect: `{"error": details}`, or the shape `provider`'s profile gives it. */
export const mismatchBody = (provider: Provider, request: HttpRequest, error: ReplayMismatchError) => {
  const excerpt = requestExcerpt(request);
  const details: MismatchDetails = {
    type: "replay_mismatch",
    message: `replay-agent could not replay ${request.method} ${request.path} (${excerpt}): ${error.message}`,
    line: error.expectedLine,
    expected: error.expected,
    diff: error.diff,
    excerpt,
  };
  const shape = isHttpProvider(provider) ? httpFormats[provider].mismatchBody : undefined;
  return shape === undefined ? { error: details } : shape(details);
};

/** Answers a request the server stopped serving before its answer was complete. */
const abandon = (response: HttpResponseWriter, type: string, message: string) =>
  Effect.sync(() => {
    if (response.headersSent) response.end();
    else writeJsonResponse(response, 503, { error: { type, message } });
  });

/** Serves one HTTP/1.1 or HTTP/2 request: a control route, or the next exchange of the transcript, written as recorded. */
export const handleRequest =
  (runtime: ReplayRuntime<HttpRequest, HttpRun>) =>
  (incoming: IncomingMessage | Http2ServerRequest, outgoing: ServerResponse | Http2ServerResponse): Effect.Effect<void> => {
    const response = nodeResponseWriter(outgoing);
    const method = incoming.method ?? "GET";
    const path = incoming.url ?? "/";
    if (path.startsWith(controlPrefix)) return handleControl(runtime, method, path, response);
    return readRequest(incoming).pipe(
      Effect.flatMap((request) =>
        runtime
          .serve(request, httpAnswerSink(response))
          .pipe(
            Effect.catchTag("ReplayMismatchError", (error) =>
              Effect.sync(() => writeJsonResponse(response, 400, mismatchBody(runtime.transcript.meta.provider, request, error))),
            ),
          ),
      ),
      Effect.onInterrupt(() => abandon(response, "replay_closed", "the replay server closed before answering this request")),
      Effect.catchDefect((defect) => abandon(response, "replay_internal_error", Cause.pretty(Cause.die(defect)))),
    );
  };
