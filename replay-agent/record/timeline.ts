import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import type { RecordOutputError } from "../errors.ts";
import type { RecordedLine, TranscriptFile } from "./transcript-file.ts";

/** The time now, in ms with a fraction, from the recorder's clock. */
export const now: Effect.Effect<number> = Effect.map(Clock.currentTimeNanos, (nanos) => Number(nanos) / 1e6);

/**
 * The time a recording keeps of one answer, from when its request was sent upstream: `until(at)`
 * is the whole ms to wait before something that came at `at` (ms), after what was kept so far;
 * 0 under half a ms. What rounding leaves out is carried over to the next wait, so the waits
 * kept add up to the time that passed, to half a ms.
 */
export interface Timeline {
  readonly until: (at: number) => number;
}

export const makeTimeline = (start: number): Timeline => {
  let kept = start;
  return {
    until: (at) => {
      const ms = Math.round(at - kept);
      if (ms < 1) return 0;
      kept += ms;
      return ms;
    },
  };
};

/** The delay line of a wait of `ms`: none under 1 ms (the timeline gives 0 then). */
export const delayLines = (ms: number): ReadonlyArray<RecordedLine> => (ms >= 1 ? [{ type: "delay", ms }] : []);

/** Appends a delay line of `ms`, when there is one to keep. */
export const appendDelay = (file: TranscriptFile, ms: number): Effect.Effect<void, RecordOutputError> =>
  Effect.forEach(delayLines(ms), file.append, { discard: true });

/** When each chunk of a stream came, by where it starts in the stream; `at(offset)` is the time of the chunk that holds that byte. */
export const makeChunkTimes = () => {
  let chunks: Array<{ readonly start: number; readonly at: number }> = [];
  return {
    add: (start: number, at: number) => {
      chunks.push({ start, at });
    },
    at: (offset: number): number => chunks.findLast((chunk) => chunk.start <= offset)?.at ?? 0,
    /** Forgets the chunks that end before `offset`. */
    forget: (offset: number) => {
      const first = chunks.findLastIndex((chunk) => chunk.start <= offset);
      if (first > 0) chunks = chunks.slice(first);
    },
  };
};
