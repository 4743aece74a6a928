import * as Effect from "effect/Effect";
import type { AnswerRun, ResponseSink } from "../runtime/response-sink.ts";
import type { AnswerEntry } from "../transcript/transcript.ts";
import type { HttpResponseWriter } from "./http-response.ts";
import { writeJsonResponse } from "./json.ts";
import { encodeSseEvents, writeSseEvents, type SseEvent } from "./sse.ts";

/** Consecutive sse frames as HTTP writes them. */
export interface EncodedFrames {
  readonly type: "encoded_frames";
  readonly writes: ReadonlyArray<Buffer>;
}

/** A run of answer lines as HTTP writes it: its sse frames encoded, other lines as recorded. */
export type HttpRun = ReadonlyArray<EncodedFrames | AnswerEntry>;

/**
 * Encodes a run of answer lines once, when the transcript is loaded: each sse frame as its
 * `event:` name (when recorded) and its data JSON or `[DONE]`, consecutive frames together.
 */
export const prepareHttpRun = (run: AnswerRun): HttpRun => {
  const prepared: Array<EncodedFrames | AnswerEntry> = [];
  let frames: Array<SseEvent> = [];
  const flush = () => {
    if (frames.length > 0) prepared.push({ type: "encoded_frames", writes: encodeSseEvents(frames) });
    frames = [];
  };
  for (const entry of run) {
    if (entry.type === "emit_inbound" && entry.sse !== undefined) {
      frames.push({ event: entry.sse.event, data: entry.sse.data === "[DONE]" ? "[DONE]" : JSON.stringify(entry.sse.data) });
    } else {
      flush();
      prepared.push(entry);
    }
  }
  flush();
  return prepared;
};

/** Writes one part of a run: encoded frames, a whole JSON response, a fail as its status and body, a disconnect as a dropped connection. */
const writePart = (response: HttpResponseWriter, part: EncodedFrames | AnswerEntry): Effect.Effect<void> =>
  Effect.suspend(() => {
    switch (part.type) {
      case "encoded_frames":
        return writeSseEvents(response, part.writes);
      case "emit_inbound":
        if (part.response !== undefined) writeJsonResponse(response, part.response.status, part.response.body, part.response.headers);
        return Effect.void;
      case "fail":
        writeJsonResponse(response, part.status, part.body, part.headers);
        return Effect.void;
      case "disconnect":
      case "exit":
        response.destroy();
        return Effect.void;
    }
  });

/** Writes one request's prepared answer runs to an HTTP response exactly as recorded, whatever the provider. */
export const httpAnswerSink = (response: HttpResponseWriter): ResponseSink<HttpRun> => ({
  send: (run) => Effect.forEach(run, (part) => writePart(response, part), { discard: true }),
  end: Effect.sync(() => response.end()),
});
