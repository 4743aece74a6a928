import type { ReplayMismatchError, TranscriptError } from "../errors.ts";
import type { Transcript } from "../transcript/transcript.ts";

/** The first line of `transcript` that breaks a provider's framing rules, if any. */
export type FramingCheck = (transcript: Transcript) => TranscriptError | undefined;

/** How the recorder authenticates to the real provider: the environment variable holding its key, and the request headers that carry it. */
export interface Credentials {
  readonly env: string;
  readonly headers: (key: string) => Readonly<Record<string, string>>;
}

/**
 * How the recorder authenticates to a provider that takes AWS Signature V4 (Bedrock): it signs each
 * request itself for `service`, with the standard AWS variables of its environment.
 */
export interface SigV4Credentials {
  readonly sigv4: {
    readonly service: string;
    /** The region an upstream host names (`bedrock-runtime.<region>.amazonaws.com`), which the signature must carry. */
    readonly regionOfHost: (host: string) => string | undefined;
  };
}

/** What the replay agent says of a request the transcript did not expect, in the 400 it answers it with. */
export interface MismatchDetails {
  readonly type: "replay_mismatch";
  readonly message: string;
  readonly line: number | null;
  readonly expected: unknown;
  readonly diff: string;
  readonly excerpt: string;
}

/** What an HTTP provider's profile contributes: its framing rules, and how the recorder authenticates to the real provider. */
export interface HttpProviderFormat {
  readonly checkFraming: FramingCheck;
  /** Undefined when the provider takes no key (a local server such as Ollama). */
  readonly credentials: Credentials | SigV4Credentials | undefined;
  /**
   * The hosts its official clients call unless told otherwise, which a config's `route: true` sends to the replay agent
   * (`*` stands for one label of a name); none for a server on the app's own machine (Ollama, OpenCode).
   */
  readonly hosts: ReadonlyArray<string>;
  /** The mismatch's 400 body in the provider's error shape, when its client reads `{"error": details}` badly (the default). */
  readonly mismatchBody?: (details: MismatchDetails) => unknown;
}

/**
 * What a message-speaking provider's profile (stdio or WebSocket) contributes: its framing rules
 * and how it answers a message the transcript did not expect.
 */
export interface MessageProviderFormat {
  readonly checkFraming: FramingCheck;
  /** The message written back for an unexpected `message` (raw text when it was not JSON), or undefined when the protocol has no way to answer it. */
  readonly answerMismatch: (message: unknown, error: ReplayMismatchError) => unknown;
  /**
   * A frame of the answer to `message` as it is written, for a protocol whose answer repeats
   * something the app chose afresh on each run (claude-code: the request_id of the control_request
   * a control_response answers). Absent: every frame is written as the transcript has it.
   */
  readonly echo?: (message: unknown, frame: unknown) => unknown;
}

/** What a stdio provider's profile contributes. */
export interface StdioProviderFormat extends MessageProviderFormat {
  /**
   * How the app writes to the agent's stdin: `lines` (the default), one message a line, parsed as
   * JSON (the raw text when it is not JSON); `prompt`, one text message, all of stdin until the app
   * closes it, after which the agent plays its answer and exits.
   */
  readonly stdin?: "lines" | "prompt";
}

/** What a WebSocket provider's profile contributes: also how the recorder authenticates the connections it opens upstream. */
export interface WebSocketProviderFormat extends MessageProviderFormat {
  readonly credentials: Credentials;
  /** The hosts its official clients open their connections to unless told otherwise, which a config's `route: true` sends to the replay agent. */
  readonly hosts: ReadonlyArray<string>;
}
