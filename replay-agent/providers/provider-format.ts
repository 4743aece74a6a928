import type { TranscriptError } from "../errors.ts";
import type { ResponseSink } from "../runtime/response-sink.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { HttpResponseWriter } from "../wire/http-response.ts";

/** What one provider's wire format contributes: its framing rules and how it writes an answer over HTTP. */
export interface HttpProviderFormat {
  /** The first line that breaks the provider's framing rules, if any. */
  readonly checkFraming: (transcript: Transcript) => TranscriptError | undefined;
  /** Writes one request's answer lines to an HTTP response. */
  readonly httpSink: (response: HttpResponseWriter) => ResponseSink;
}
