import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import * as Effect from "effect/Effect";
import * as Predicate from "effect/Predicate";
import * as Semaphore from "effect/Semaphore";
import type * as Scope from "effect/Scope";
import type { ListenError, MissingAwsSigningError, MissingKeyError, RecordOutputError } from "../errors.ts";
import { listenHttp } from "../http/listen.ts";
import type { HttpProvider } from "../transcript/providers.ts";
import type { ExchangeContext } from "./exchange-context.ts";
import { recordedMeta } from "./meta-line.ts";
import { recordExchange } from "./record-exchange.ts";
import { recordSession, recordsSessions } from "./record-session.ts";
import { makeRedactor, secretValues } from "./redact.ts";
import { openSessionTranscript, type RequestLines } from "./session-transcript.ts";
import { openTranscriptFile, type RecordingCounts } from "./transcript-file.ts";
import { upstreamAuth } from "./upstream-auth.ts";

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
  /** Where the real provider's key (or AWS credentials and region) is read from: the recorder's own environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: (line: string) => void;
  /** Keep the time between the upstream's chunks as delay lines (default true); never for a session (OpenCode), whose streams stay open between requests. */
  readonly timing?: boolean;
}

/** The model a request asks for: its body's `model`, or the model its path names (Gemini's `/models/<model>:…`, Bedrock's `/model/<id>/…`). */
const modelOf = (request: { readonly path: string; readonly body: unknown }): string | undefined => {
  if (Predicate.isObject(request.body) && typeof request.body["model"] === "string") return request.body["model"];
  const inPath = /\/models?\/([^/:?]+)/.exec(request.path)?.[1];
  return inPath === undefined ? undefined : decodeURIComponent(inPath);
};

/**
/**
 * Records a real provider: a proxy on 127.0.0.1 (HTTP/1.1 and h2c) that forwards each request to
 * `upstream` with the credentials from `env` (a key, or an AWS signature made anew), relays the
 * answer to the app as it arrives and appends it to `out` at once, those credentials and every
 * other secret-looking value of `env` cut out. Exchanges run one at a time, the order the replay
 * runtime plays them in, except for a provider recorded as a session (OpenCode), whose exchanges
 * run at once (see `recordSession`). Closing the scope cuts open streams short with a disconnect
 * line (a session's with a hold), so `out` stays a valid transcript.
 */
export const recordProxy = Effect.fn("recordProxy")(function* (
  options: RecordOptions,
): Effect.fn.Return<Recorder, MissingKeyError | MissingAwsSigningError | RecordOutputError | ListenError, Scope.Scope> {
  const auth = yield* upstreamAuth(options.provider, options.upstream, options.env);
  const redactor = makeRedactor([...auth.secrets, ...secretValues(options.env)]);
  const lines: RequestLines = {
    meta: (request, userAgent) => recordedMeta(options.provider, { model: modelOf(request), client: userAgent }, redactor),
    request: (request) => {
      const body = request.body === undefined ? {} : { body: redactor.pattern(request.body) };
      return { type: "expect_outbound", request: { method: request.method, path: redactor.pattern(request.path), ...body } };
    },
  };
  const shared = {
    upstream: options.upstream,
    sign: auth.sign,
    redactor,
    log: options.log,
    timing: options.timing !== false && !recordsSessions(options.provider),
  };
  const recording = recordsSessions(options.provider)
    ? yield* sessionRecording(options.out, lines, shared)
    : yield* oneAtATime(options.out, lines, shared);
  const handle = (...[incoming, outgoing]: Parameters<Recording["exchange"]>) =>
    recording
      .exchange(incoming, outgoing)
      .pipe(Effect.catchTag("RecordOutputError", (error) => Effect.sync(() => options.log(`replay-agent: ${error.message}`))));
  // HTTP/1.1 and cleartext HTTP/2 on one port, as the replay agent serves: the AWS SDK's Node client speaks HTTP/2.
  const { port } = yield* listenHttp(options.port, handle, { http2: handle });
  // Runs before the listener's close interrupts the exchanges still going on.
  yield* Effect.addFinalizer(() => Effect.sync(recording.stopping));
  return { url: `http://127.0.0.1:${port}`, counts: recording.counts };
});

/** How a recording takes its exchanges: a handler for each request, what it holds so far, and a call to make when it stops. */
interface Recording {
  readonly exchange: (
    incoming: IncomingMessage | Http2ServerRequest,
    outgoing: ServerResponse | Http2ServerResponse,
  ) => Effect.Effect<void, RecordOutputError>;
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
