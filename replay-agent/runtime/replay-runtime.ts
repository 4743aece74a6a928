import type * as Effect from "effect/Effect";
import type * as Stream from "effect/Stream";
import type { NotPausedError, PauseNotReachedError, ReplayMismatchError } from "../errors.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { ResponseSink } from "./response-sink.ts";

/** A request that matched no expectation; the expectation stays for the next request. */
export interface Mismatch<Req> {
  readonly request: Req;
  readonly expectedLine: number | null;
  readonly expected: unknown;
  readonly diff: string;
}

/** Every request the app sent, in the order they were matched or rejected. */
export interface RecordedRequest<Req> {
  readonly request: Req;
  readonly matched: boolean;
}

/** The next unplayed entry, e.g. `{ line: 7, type: "expect_outbound", summary: "expect_outbound POST /v1/chat/completions" }`. */
export interface NextEntry {
  readonly line: number;
  readonly type: string;
  readonly summary: string;
}

/** Progress through the transcript; played and remaining count entries after meta. */
export interface RuntimeStatus<Req> {
  readonly played: number;
  readonly remaining: number;
  readonly paused: string | null;
  readonly mismatches: ReadonlyArray<Mismatch<Req>>;
  readonly next: NextEntry | null;
}

/** A pause line of the transcript: its name and its line number. */
export interface HeldPause {
  readonly name: string;
  readonly line: number;
}

/**
 * The provider-neutral replay runtime: an ordered cursor over a transcript's entries.
 * It knows requests only as JSON values to match, and answers only as runs of lines to hand
 * to a `ResponseSink`, as its transport prepared them (`Run`); it knows no provider, turn or tool.
 */
export interface ReplayRuntime<Req, Run = unknown> {
  readonly transcript: Transcript;
  /**
   * Matches `request` against the next unclaimed expect_outbound at once; a mismatch fails
   * without consuming it. A match waits until every earlier answer has been played, then
   * plays this request's answer to `sink`: each run of lines between pauses and delays in one
   * `send`, holding the pauses and waiting out the delays between them.
   */
  readonly serve: (request: Req, sink: ResponseSink<Run>) => Effect.Effect<void, ReplayMismatchError>;
  /**
   * Plays the lines before the first expect_outbound to `sink`: what a stdio agent says before
   * the app says anything. HTTP transcripts have none, since an HTTP provider only answers.
   */
  readonly serveOpening: (sink: ResponseSink<Run>) => Effect.Effect<void>;
  readonly status: Effect.Effect<RuntimeStatus<Req>>;
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest<Req>>>;
  /** Succeeds with the pause's line when the transcript is held at the next pause called `name` (at once if held there now). */
  readonly awaitPause: (name: string) => Effect.Effect<HeldPause, PauseNotReachedError>;
  /** Releases the pause the transcript is held at, returning it. */
  readonly resume: Effect.Effect<HeldPause, NotPausedError>;
  /** Emits after every change of `status` or `requests`, for a transport that reports them to another process. */
  readonly changes: Stream.Stream<void>;
}
