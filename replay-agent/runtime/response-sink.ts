import type * as Effect from "effect/Effect";
import type { AnswerEntry } from "../transcript/transcript.ts";

/** Consecutive answer lines with no pause, delay or expect_outbound between them: what a transport may write at once. */
export type AnswerRun = ReadonlyArray<AnswerEntry>;

/**
 * Where the runtime plays one request's answer. A wire format implements it for one
 * provider and transport; the runtime itself only orders lines, holds pauses and waits.
 * `Run` is a run of answer lines as the transport prepared it when the transcript was loaded.
 */
export interface ResponseSink<Run = AnswerRun> {
  /** Writes one run of answer lines (emit_inbound, fail, disconnect, exit) exactly as recorded; completes once the transport can take more. */
  readonly send: (run: Run) => Effect.Effect<void>;
  /** Closes the answer after its last line. */
  readonly end: Effect.Effect<void>;
}
