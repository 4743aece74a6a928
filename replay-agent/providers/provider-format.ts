import type { ReplayMismatchError, TranscriptError } from "../errors.ts";
import type { Transcript } from "../transcript/transcript.ts";

/** The first line of `transcript` that breaks a provider's framing rules, if any. */
export type FramingCheck = (transcript: Transcript) => TranscriptError | undefined;

/** What an HTTP provider's wire format contributes: its framing rules, and how the recorder authenticates to the real provider. */
export interface HttpProviderFormat {
  readonly checkFraming: FramingCheck;
  /** The environment variable holding the real provider's key, and the request headers that carry it. */
  readonly credentials: {
    readonly env: string;
    readonly headers: (key: string) => Readonly<Record<string, string>>;
  };
}

/** What a stdio provider's wire format contributes: its framing rules and how it answers a message the transcript did not expect. */
export interface StdioProviderFormat {
  readonly checkFraming: FramingCheck;
  /** The message written back for an unexpected `message` (raw text when it was not JSON), or undefined when the protocol has no way to answer it. */
  readonly answerMismatch: (message: unknown, error: ReplayMismatchError) => unknown;
}
