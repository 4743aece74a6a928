import type { ExpectOutbound } from "./schema.ts";
import type { Located, Transcript, TranscriptEntry } from "./transcript.ts";

/** A line that belongs to an answer: anything but an expect_outbound. */
export type AnswerLine = Exclude<TranscriptEntry, Located<ExpectOutbound>>;

/** One expected request and the lines that answer it (up to the next expect_outbound). */
export interface Exchange {
  readonly request: Located<ExpectOutbound>;
  readonly answer: ReadonlyArray<AnswerLine>;
}

/** The transcript cut into exchanges; lines before the first expect_outbound (stdio only) are left out. */
export const exchangesOf = (transcript: Transcript): ReadonlyArray<Exchange> => {
  const exchanges: Array<{ request: Located<ExpectOutbound>; answer: Array<AnswerLine> }> = [];
  for (const entry of transcript.entries) {
    if (entry.type === "expect_outbound") exchanges.push({ request: entry, answer: [] });
    else exchanges.at(-1)?.answer.push(entry);
  }
  return exchanges;
};
