import type { Effect } from "effect";
import type { AnswerEntry } from "../transcript/transcript.ts";

/**
 * Where the runtime plays one request's answer. A wire format implements it for one
 * provider and transport; the runtime itself only orders lines, holds pauses and waits.
 */
export interface ResponseSink {
  /** Writes one answer line (emit_inbound, fail, disconnect, exit) exactly as recorded. */
  readonly send: (entry: AnswerEntry) => Effect.Effect<void>;
  /** Closes the answer after its last line. */
  readonly end: Effect.Effect<void>;
}
