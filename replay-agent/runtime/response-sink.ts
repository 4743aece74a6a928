import type * as Effect from "effect/Effect";
import type { AnswerEntry } from "../transcript/transcript.ts";

/**
 * One answer line, or part of one: an sse frame whose `cut` holds a delay or a pause between
 * its pieces is played as bytes `from` up to `to` (undefined: to its end) of the frame as written.
 */
export interface AnswerPiece {
  readonly entry: AnswerEntry;
  readonly from: number;
  readonly to: number | undefined;
}

/** Consecutive answer pieces with no pause, delay or expect_outbound between them: what a transport may write without waiting. */
export type AnswerRun = ReadonlyArray<AnswerPiece>;

/**
 * Where the runtime plays one request's answer. A wire format implements it for one
 * provider and transport; the runtime itself only orders lines, holds pauses and waits.
 * `Run` is a run of answer pieces as the transport prepared it when the transcript was loaded.
 */
export interface ResponseSink<Run = AnswerRun> {
  /** Writes one run of answer pieces (emit_inbound, fail, disconnect, exit) exactly as recorded; completes once the transport has taken them. */
  readonly send: (run: Run) => Effect.Effect<void>;
  /** Closes the answer after its last line. */
  readonly end: Effect.Effect<void>;
  /** Completes once the app has closed this answer (its connection); a `hold` keeps the answer open until then. Absent: held until the runtime stops. */
  readonly closed?: Effect.Effect<void>;
}
