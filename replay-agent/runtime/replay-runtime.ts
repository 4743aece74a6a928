import type * as Effect from "effect/Effect";
import type * as Stream from "effect/Stream";
import type { NotPausedError, PauseNotReachedError, ReplayMismatchError } from "../errors.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { ResponseSink } from "./response-sink.ts";

/** A request that matched no expectation; the expectations stay for the next request. `at`: when it came, in epoch ms. */
export interface Mismatch<Req> {
  readonly request: Req;
  readonly expectedLine: number | null;
  readonly expected: unknown;
  readonly diff: string;
  readonly at: number;
}

/** Every request the app sent, in the order they were matched or rejected; `line` is the expect_outbound it matched. */
export interface RecordedRequest<Req> {
  readonly request: Req;
  readonly matched: boolean;
  readonly line: number | null;
  readonly at: number;
}

/** The next unplayed entry, e.g. `{ line: 7, type: "expect_outbound", summary: "expect_outbound POST /v1/chat/completions" }`. */
export interface NextEntry {
  readonly line: number;
  readonly type: string;
  readonly summary: string;
}

/** A pause of the transcript: its name and its line number (a pause inside a frame's cuts has the frame's line). */
export interface HeldPause {
  readonly name: string;
  readonly line: number;
}

/**
 * Progress through the transcript. `played` counts the lines after meta played at least once;
 * `remaining` the lines that must still play (an optional or already satisfied expectation's
 * lines do not count), and `next` is the first of them. `held` is every pause held now, in the
 * order they were reached; `paused` is the first one's name.
 */
export interface RuntimeStatus<Req> {
  readonly played: number;
  readonly remaining: number;
  readonly paused: string | null;
  readonly held: ReadonlyArray<HeldPause>;
  readonly mismatches: ReadonlyArray<Mismatch<Req>>;
  readonly next: NextEntry | null;
}

/**
 * The provider-neutral replay runtime: the transcript's exchanges in lanes, each lane matched
 * and answered in order, the lanes independent of each other.
 * It knows requests only as JSON values to match, and answers only as runs of lines to hand
 * to a `ResponseSink`, as its transport prepared them (`Run`); it knows no provider, turn or tool.
 */
export interface ReplayRuntime<Req, Run = unknown> {
  readonly transcript: Transcript;
  /**
   * Matches `request` at once against each lane's next expectations, in file order; a mismatch
   * fails without consuming any. A match waits until the earlier answers of its lane have been
   * played, then plays this request's answer to `sink`: each run of pieces between pauses and
   * delays in one `send`, holding the pauses and waiting out the delays between them.
   */
  readonly serve: (request: Req, sink: ResponseSink<Run>) => Effect.Effect<void, ReplayMismatchError>;
  /**
   * Plays the lines before the first expect_outbound to `sink`: what a stdio agent says before
   * the app says anything. HTTP transcripts have none, since an HTTP provider only answers.
   */
  readonly serveOpening: (sink: ResponseSink<Run>) => Effect.Effect<void>;
  /**
   * Matches the arguments a stdio agent was started with (`request`, as `{spawn: {args}}`) against
   * the transcript's `spawn` expectation, then plays its answer to `sink`; succeeds at once when the
   * transcript has none. A message never matches a spawn expectation, and the arguments nothing else.
   */
  readonly serveSpawn: (request: Req, sink: ResponseSink<Run>) => Effect.Effect<void, ReplayMismatchError>;
  readonly status: Effect.Effect<RuntimeStatus<Req>>;
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest<Req>>>;
  /** Succeeds with the pause's line when the transcript is held at the next pause called `name` (at once if held there now). */
  readonly awaitPause: (name: string) => Effect.Effect<HeldPause, PauseNotReachedError>;
  /** Releases the pause held at (the one called `name` when several are held), returning it. */
  readonly resume: (name?: string) => Effect.Effect<HeldPause, NotPausedError>;
  /** Emits after every change of `status` or `requests`, for a transport that reports them to another process. */
  readonly changes: Stream.Stream<void>;
}
