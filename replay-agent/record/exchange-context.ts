import * as Effect from "effect/Effect";
import type { RecordOutputError } from "../errors.ts";
import type { HttpResponseWriter } from "../wire/http-response.ts";
import { isTransferHeader, type Redactor } from "./redact.ts";
import type { TranscriptFile } from "./transcript-file.ts";
import type { UpstreamAuth } from "./upstream-auth.ts";

/** What every recorded exchange shares. */
export interface ExchangeContext {
  readonly upstream: URL;
  /** Adds the recorder's own credentials (a key header, or a signature) to each request, in place of the app's. */
  readonly sign: UpstreamAuth["sign"];
  readonly file: TranscriptFile;
  readonly redactor: Redactor;
  /** Appends the line that starts an exchange (with the meta line before the first one). */
  readonly begin: (
    request: { readonly method: string; readonly path: string; readonly body: unknown },
    userAgent: string | undefined,
  ) => Effect.Effect<void, RecordOutputError>;
  /** Records a request the recorder was stopped before the provider answered; without it, such a request leaves no trace. */
  readonly unanswered?: ExchangeContext["begin"];
  readonly log: (line: string) => void;
  /** Whether the time the upstream took is kept, as delay lines and cut delays. */
  readonly timing: boolean;
}

/** The provider's headers as the app gets them: all but transfer details (the body is framed anew) and cookies. */
export const appHeaders = (headers: Headers): Record<string, string> =>
  Object.fromEntries([...headers.entries()].filter(([name]) => !isTransferHeader(name) && name !== "set-cookie"));

/** `upstream`'s origin and path prefix, then the path and query the app asked for. */
export const targetOf = (upstream: URL, path: string): URL => new URL(`${upstream.pathname.replace(/\/$/, "")}${path}`, upstream.origin);

/** An error's message, with its cause's when it has one (fetch's "fetch failed" says little alone). */
export const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
};

/** A stream the provider or the app dropped: the transcript says disconnect, the app loses its connection. */
export const dropped = (context: ExchangeContext, app: HttpResponseWriter) =>
  context.file.append({ type: "disconnect" }).pipe(Effect.andThen(Effect.sync(() => app.destroy())));
