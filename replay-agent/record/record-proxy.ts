import type { IncomingMessage, ServerResponse } from "node:http";
import * as Effect from "effect/Effect";
import * as Predicate from "effect/Predicate";
import * as Semaphore from "effect/Semaphore";
import type * as Scope from "effect/Scope";
import { MissingKeyError, type ListenError, type RecordOutputError } from "../errors.ts";
import { listenHttp } from "../http/listen.ts";
import { httpFormats } from "../providers/registry.ts";
import type { HttpProvider } from "../transcript/providers.ts";
import type { ExchangeContext } from "./exchange-context.ts";
import { recordedMeta } from "./meta-line.ts";
import { recordExchange } from "./record-exchange.ts";
import { recordSession, recordsSessions } from "./record-session.ts";
import { makeRedactor, secretValues } from "./redact.ts";
import { openSessionTranscript, type RequestLines } from "./session-transcript.ts";
import { openTranscriptFile, type RecordingCounts } from "./transcript-file.ts";

/** A recording proxy listening until its scope closes. */
export interface Recorder {
  /** "http://127.0.0.1:<port>": point the app's provider base URL here. */
  readonly url: string;
  readonly counts: () => RecordingCounts;
}

export interface RecordOptions {
  readonly provider: HttpProvider;
  readonly upstream: URL;
  readonly out: string;
  readonly port: number;
  /** Where the real provider's key is read from (the recorder's own environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: (line: string) => void;
}

/** The model a request asks for: its body's `model`, or the model its path names (Gemini's `/models/<model>:…`, Bedrock's `/model/<id>/…`). */
const modelOf = (request: { readonly path: string; readonly body: unknown }): string | undefined => {
  if (Predicate.isObject(request.body) && typeof request.body["model"] === "string") return request.body["model"];
  const inPath = /\/models?\/([^/:?]+)/.exec(request.path)?.[1];
  return inPath === undefined ? undefined : decodeURIComponent(inPath);
};

/**
 * Records a real provider: a proxy on 127.0.0.1 that forwards each request to `upstream` with
 * the key from `env`, relays the answer to the app as it arrives and appends it to `out` at once,
 * that key and every other secret-looking value of `env` cut out. Exchanges run one at a time,
 * the order the replay runtime plays them in, except for a provider recorded as a session
 * (OpenCode), whose exchanges run at once (see `recordSession`). Closing the scope cuts open
 * streams short with a disconnect line (a session's with a hold), so `out` stays a valid
 * transcript.
 */
export const recordProxy = Effect.fn("recordProxy")(function* (
  options: RecordOptions,
): Effect.fn.Return<Recorder, MissingKeyError | RecordOutputError | ListenError, Scope.Scope> {
  const { credentials } = httpFormats[options.provider];
  const key = credentials === undefined ? undefined : options.env[credentials.env];
  if (credentials !== undefined && (key === undefined || key === ""))
    return yield* new MissingKeyError({ provider: options.provider, env: credentials.env });
  const redactor = makeRedactor([...(key === undefined ? [] : [key]), ...secretValues(options.env)]);
  const lines: RequestLines = {
    meta: (request, userAgent) => recordedMeta(options.provider, { model: modelOf(request), client: userAgent }, redactor),
    request: (request) => {
      const body = request.body === undefined ? {} : { body: redactor.pattern(request.body) };
      return { type: "expect_outbound", request: { method: request.method, path: redactor.pattern(request.path), ...body } };
    },
  };
  const shared = {
    upstream: options.upstream,
    credentials: credentials === undefined || key === undefined ? {} : credentials.headers(key),
    redactor,
    log: options.log,
  };
  const recording = recordsSessions(options.provider)
    ? yield* sessionRecording(options.out, lines, shared)
    : yield* oneAtATime(options.out, lines, shared);
  const { port } = yield* listenHttp(options.port, (incoming, outgoing) =>
    recording
      .exchange(incoming, outgoing)
      .pipe(Effect.catchTag("RecordOutputError", (error) => Effect.sync(() => options.log(`replay-agent: ${error.message}`)))),
  );
  // Runs before the listener's close interrupts the exchanges still going on.
  yield* Effect.addFinalizer(() => Effect.sync(recording.stopping));
  return { url: `http://127.0.0.1:${port}`, counts: recording.counts };
});

/** How a recording takes its exchanges: a handler for each request, what it holds so far, and a call to make when it stops. */
interface Recording {
  readonly exchange: (incoming: IncomingMessage, outgoing: ServerResponse) => Effect.Effect<void, RecordOutputError>;
  readonly counts: () => RecordingCounts;
  readonly stopping: () => void;
}

type SharedContext = Omit<ExchangeContext, "file" | "begin" | "unanswered">;

/** Exchanges one at a time, the order the replay runtime plays one lane in, each line appended to `out` as it comes. */
const oneAtATime = (out: string, lines: RequestLines, shared: SharedContext): Effect.Effect<Recording, RecordOutputError> =>
  Effect.gen(function* () {
    const file = yield* openTranscriptFile(out);
    let metaWritten = false;
    const begin: ExchangeContext["begin"] = (request, userAgent) =>
      Effect.gen(function* () {
        if (!metaWritten) {
          yield* file.append(yield* lines.meta(request, userAgent));
          metaWritten = true;
        }
        yield* file.append(lines.request(request));
      });
    const permit = Semaphore.makeUnsafe(1);
    const exchange = recordExchange({ ...shared, file, begin });
    return {
      exchange: (incoming, outgoing) => exchange(incoming, outgoing).pipe(permit.withPermits(1)),
      counts: file.counts,
      stopping: () => {},
    };
  });

/** Exchanges at once, each in a lane while it lasts, ordered across lanes as they came (see `recordSession`). */
const sessionRecording = (out: string, lines: RequestLines, shared: SharedContext): Effect.Effect<Recording, RecordOutputError> =>
  Effect.map(openSessionTranscript(out, lines), (transcript) => ({
    exchange: recordSession(shared, transcript),
    counts: transcript.counts,
    stopping: transcript.stopping,
  }));
