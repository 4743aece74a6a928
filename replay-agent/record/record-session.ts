import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import * as Effect from "effect/Effect";
import type { RecordOutputError } from "../errors.ts";
import type { HttpProvider } from "../transcript/providers.ts";
import type { ExchangeContext } from "./exchange-context.ts";
import { recordExchange } from "./record-exchange.ts";
import type { SessionTranscript } from "./session-transcript.ts";

/** Providers whose app keeps an answer open while it sends other requests, recorded as a session of overlapping exchanges. */
const sessionProviders: ReadonlySet<HttpProvider> = new Set(["opencode"]);

/** Whether `provider` is recorded as a session (its exchanges at once, each in a lane) rather than one exchange at a time. */
export const recordsSessions = (provider: HttpProvider): boolean => sessionProviders.has(provider);

/** The lane a request starts in: OpenCode's event streams (`/event`, `/global/event`) in `events`, every other request in `main`. */
const laneOf = (path: string): string => (/^\/(global\/)?event(\?|$)/.test(path) ? "events" : "main");

/**
 * Records each request as it comes, beside the exchanges still going on: in its own lane of
 * `transcript` for as long as it lasts (see `openSessionTranscript`), forwarded and relayed as
 * `recordExchange` does. An answer the app closes before it ended is recorded as held open (the
 * provider never ended it).
 */
export const recordSession =
  (context: Omit<ExchangeContext, "file" | "begin" | "unanswered">, transcript: SessionTranscript) =>
  (
    incoming: IncomingMessage | Http2ServerRequest,
    outgoing: ServerResponse | Http2ServerResponse,
  ): Effect.Effect<void, RecordOutputError> =>
    Effect.suspend(() => {
      const exchange = transcript.open(laneOf(incoming.url ?? "/"));
      const closed = () => {
        if (!outgoing.writableFinished) exchange.appClosed();
      };
      outgoing.once("close", closed);
      return recordExchange({ ...context, file: exchange.file, begin: exchange.begin, unanswered: exchange.unanswered })(
        incoming,
        outgoing,
      ).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            outgoing.off("close", closed);
            exchange.close();
          }),
        ),
      );
    });
