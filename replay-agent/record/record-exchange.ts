import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import * as Effect from "effect/Effect";
import { UpstreamError, type RecordOutputError } from "../errors.ts";
import { nodeResponseWriter } from "../http/node-response.ts";
import { parseBody, readBody } from "../http/read-request.ts";
import type { HttpResponseWriter } from "../wire/http-response.ts";
import { writeJsonResponse } from "../wire/json.ts";
import { appHeaders, describe, dropped, targetOf, type ExchangeContext } from "./exchange-context.ts";
import { isKeptHeader } from "./redact.ts";
import { relayStream } from "./record-stream.ts";
import { streamKindOfContentType } from "./stream-blocks.ts";
import { appendDelay, makeTimeline, now, type Timeline } from "./timeline.ts";

/** The app's headers as the provider gets them, before the recorder's credentials: its own and HTTP/2's pseudo-headers dropped, and an identity encoding so frames can be read. */
const upstreamHeaders = (incoming: IncomingMessage | Http2ServerRequest): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || name.startsWith(":") || !isKeptHeader(name) || name === "accept-encoding") continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { ...headers, "accept-encoding": "identity" };
};

/** Relays a whole answer: an error status becomes a fail line, any other a JSON response line; with a `timeline`, after a delay line of the time until its body had come. */
const relayWhole = (context: ExchangeContext, response: Response, app: HttpResponseWriter, timeline: Timeline | undefined) =>
  Effect.gen(function* () {
    const text = yield* Effect.promise(() =>
      response.text().then(
        (body) => body,
        () => undefined,
      ),
    );
    if (text === undefined) return yield* dropped(context, app);
    if (timeline !== undefined) yield* appendDelay(context.file, timeline.until(yield* now));
    const headers = context.redactor.headers(response.headers);
    const recordedHeaders = Object.keys(headers).length === 0 ? {} : { headers };
    const body = context.redactor.value(parseBody(text)) ?? "";
    yield* context.file.append(
      response.status >= 400
        ? { type: "fail", status: response.status, ...recordedHeaders, body }
        : { type: "emit_inbound", response: { status: response.status, ...recordedHeaders, body } },
    );
    app.writeHead(response.status, appHeaders(response.headers));
    app.end(text);
  });

/**
 * Records one request: forwards it upstream with the recorder's key, then appends its
 * expect_outbound line and each line of the answer as it arrives while relaying the answer to
 * the app. An upstream that cannot be reached is answered 502 and leaves no trace; an answer
 * cut short (by the provider, the app, or the recorder stopping) ends with a disconnect line so
 * the transcript stays valid.
 */
export const recordExchange =
  (context: ExchangeContext) =>
  (
    incoming: IncomingMessage | Http2ServerRequest,
    outgoing: ServerResponse | Http2ServerResponse,
  ): Effect.Effect<void, RecordOutputError> =>
    Effect.gen(function* () {
      const raw = yield* readBody(incoming);
      const method = incoming.method ?? "GET";
      const path = incoming.url ?? "/";
      const target = targetOf(context.upstream, path);
      const request = { method, path, body: parseBody(raw.toString("utf8")) };
      const userAgent = incoming.headers["user-agent"];
      const app = nodeResponseWriter(outgoing);
      const controller = new AbortController();
      const appGone = () => controller.abort();
      let answering = false;
      const exchange = Effect.gen(function* () {
        const body = raw.length === 0 || method === "GET" || method === "HEAD" ? undefined : new Uint8Array(raw);
        const sent = yield* now;
        const response = yield* Effect.tryPromise({
          try: async () =>
            fetch(target, {
              method,
              headers: await context.sign({ method, url: target, headers: upstreamHeaders(incoming), body }),
              body,
              signal: controller.signal,
              redirect: "manual",
            }),
          catch: (error) => new UpstreamError({ url: target.href, detail: describe(error) }),
        });
        const answered = yield* now;
        yield* context.begin(request, userAgent);
        answering = true;
        const timeline = context.timing ? makeTimeline(sent) : undefined;
        const kind = response.status < 400 ? streamKindOfContentType(response.headers.get("content-type") ?? "") : undefined;
        // A stream's head line comes after the time its status and headers took.
        if (kind !== undefined && timeline !== undefined) yield* appendDelay(context.file, timeline.until(answered));
        yield* kind === undefined ? relayWhole(context, response, app, timeline) : relayStream(context, response, app, kind, timeline);
        answering = false;
      });
      outgoing.once("close", appGone);
      yield* exchange.pipe(
        Effect.catchTag("UpstreamError", (error) =>
          Effect.sync(() => {
            context.log(`replay-agent: ${error.message}`);
            writeJsonResponse(app, 502, { error: { type: "replay_upstream_error", message: error.message } });
          }),
        ),
        Effect.onInterrupt(() =>
          Effect.gen(function* () {
            controller.abort();
            if (answering) return yield* dropped(context, app).pipe(Effect.ignore);
            app.destroy();
            if (context.unanswered !== undefined) yield* context.unanswered(request, userAgent).pipe(Effect.ignore);
          }),
        ),
        Effect.ensuring(Effect.sync(() => outgoing.off("close", appGone))),
      );
    });
