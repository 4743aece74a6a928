import type { Delay, Disconnect, EmitInbound, ExpectOutbound, Exit, Fail, Hold, Mark, Meta, Pause, Wait } from "./schema.ts";

/** A decoded line together with its 1-based line number in the file. */
export type Located<E> = E & { readonly line: number };

/** A line that answers a request: written to the app by a wire format. */
export type AnswerEntry = Located<EmitInbound> | Located<Fail> | Located<Disconnect> | Located<Exit>;

/** Every line after `meta`, in file order. */
export type TranscriptEntry =
  Located<ExpectOutbound> | Located<Pause> | Located<Delay> | Located<Mark> | Located<Wait> | Located<Hold> | AnswerEntry;

/** A loaded transcript: its file, its `meta` line and the entries to replay. */
export interface Transcript {
  readonly file: string;
  readonly meta: Located<Meta>;
  readonly entries: ReadonlyArray<TranscriptEntry>;
}
