import type { IncomingMessage, ServerResponse } from "node:http";
import * as Effect from "effect/Effect";
import * as Predicate from "effect/Predicate";
import { UpstreamError, type RecordOutputError } from "../errors.ts";
import { nodeResponseWriter } from "../http/node-response.ts";
import { parseBody, readBody } from "../http/read-request.ts";
import type { HttpResponseWriter } from "../wire/http-response.ts";
import { writeJsonResponse } from "../wire/json.ts";
import { makeSseParser, type ParsedSseEvent } from "../wire/sse-parse.ts";
import { isKeptHeader, isTransferHeader, type Redactor } from "./redact.ts";
import type { TranscriptFile } from "./transcript-file.ts";

/** What every recorded exchange shares. */
export interface ExchangeContext {
  readonly upstream: URL;
  /** The headers carrying the recorder's own key, which replace the app's. */
  readonly credentials: Readonly<Record<string, string>>;
  readonly file: TranscriptFile;
  readonly redactor: Redactor;
  /** Appends the line that starts an exchange (with the meta line before the first one). */
  readonly begin: (request: { readonly method: string; readonly path: string; readonly body: unknown }, userAgent: string | undefined) => Effect.Effect<void, RecordOutputError>;
  readonly log: (line: string) => void;
}

/** `upstream`'s origin and path prefix, then the path and query the app asked for. */
const targetOf = (upstream: URL, path: string): URL => new URL(`${upstream.pathname.replace(/\/$/, "")}${path}`, upstream.origin);

/** The app's headers as the provider gets them: its credentials replaced by the recorder's, and an identity encoding so frames can be read. */
const upstreamHeaders = (incoming: IncomingMessage, credentials: Readonly<Record<string, string>>): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || !isKeptHeader(name) || name === "accept-encoding") continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { ...headers, ...credentials, "accept-encoding": "identity" };
};

/** The provider's headers as the app gets them: all but transfer details (the body is framed anew) and cookies. */
const appHeaders = (headers: Headers): Record<string, string> =>
  Object.fromEntries([...headers.entries()].filter(([name]) => !isTransferHeader(name) && name !== "set-cookie"));

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
};

/** The emit_inbound line of one streamed event, or why it cannot be recorded (a transcript frame holds a JSON object or [DONE]). */
const frameLine = (event: ParsedSseEvent, redactor: Redactor): { readonly type: "emit_inbound"; readonly sse: object } | string => {
  const named = event.event === undefined ? {} : { event: event.event };
  if (event.data === "[DONE]") return { type: "emit_inbound", sse: { ...named, data: "[DONE]" } };
  const data = parseBody(event.data);
  if (!Predicate.isObject(data) || Array.isArray(data)) return `skipped an event whose data is not a JSON object: ${redactor.text(event.data).slice(0, 80)}`;
  return { type: "emit_inbound", sse: { ...named, data: redactor.value(data) } };
};

/** A stream the provider or the app dropped: the transcript says disconnect, the app loses its connection. */
const dropped = (context: ExchangeContext, app: HttpResponseWriter) =>
  context.file.append({ type: "disconnect" }).pipe(Effect.andThen(Effect.sync(() => app.destroy())));

/** Streams an event-stream answer: each chunk reaches the app as it arrives, each event is appended as it completes. */
const relayStream = (context: ExchangeContext, response: Response, app: HttpResponseWriter) =>
  Effect.gen(function* () {
    app.writeHead(response.status, appHeaders(response.headers));
    const body = response.body;
    if (body === null) {
      app.end();
      return;
    }
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = makeSseParser();
    for (;;) {
      const next = yield* Effect.promise(() =>
        reader.read().then(
          (result) => result,
          (error: unknown) => ({ failed: error }),
        ),
      );
      if ("failed" in next) {
        context.log(`replay-agent: the stream was cut off (${describe(next.failed)}); recorded a disconnect`);
        return yield* dropped(context, app);
      }
      const text = next.done ? decoder.decode() : decoder.decode(next.value, { stream: true });
      for (const event of parser.push(text)) {
        const line = frameLine(event, context.redactor);
        if (typeof line === "string") context.log(`replay-agent: ${line}`);
        else yield* context.file.append(line);
      }
      if (next.done) {
        app.end(text);
        return;
      }
      app.write(text);
    }
  });

/** Relays a whole answer: an error status becomes a fail line, any other a JSON response line. */
const relayWhole = (context: ExchangeContext, response: Response, app: HttpResponseWriter) =>
  Effect.gen(function* () {
    const text = yield* Effect.promise(() => response.text().then((body) => body, () => undefined));
    if (text === undefined) return yield* dropped(context, app);
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
  (incoming: IncomingMessage, outgoing: ServerResponse): Effect.Effect<void, RecordOutputError> =>
    Effect.gen(function* () {
      const raw = yield* readBody(incoming);
      const method = incoming.method ?? "GET";
      const path = incoming.url ?? "/";
      const target = targetOf(context.upstream, path);
      const app = nodeResponseWriter(outgoing);
      const controller = new AbortController();
      const appGone = () => controller.abort();
      let answering = false;
      const exchange = Effect.gen(function* () {
        const response = yield* Effect.tryPromise({
          try: () =>
            fetch(target, {
              method,
              headers: upstreamHeaders(incoming, context.credentials),
              body: raw.length === 0 || method === "GET" || method === "HEAD" ? undefined : new Uint8Array(raw),
              signal: controller.signal,
              redirect: "manual",
            }),
          catch: (error) => new UpstreamError({ url: target.href, detail: describe(error) }),
        });
        yield* context.begin({ method, path, body: parseBody(raw.toString("utf8")) }, incoming.headers["user-agent"]);
        answering = true;
        const streamed = (response.headers.get("content-type") ?? "").includes("text/event-stream") && response.status < 400;
        yield* streamed ? relayStream(context, response, app) : relayWhole(context, response, app);
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
            if (answering) yield* dropped(context, app).pipe(Effect.ignore);
            else app.destroy();
          }),
        ),
        Effect.ensuring(Effect.sync(() => outgoing.off("close", appGone))),
      );
    });
