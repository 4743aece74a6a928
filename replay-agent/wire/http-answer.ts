import * as Effect from "effect/Effect";
import type { AnswerRun, ResponseSink } from "../runtime/response-sink.ts";
import type { AnswerEntry } from "../transcript/transcript.ts";
import type { HttpResponseWriter } from "./http-response.ts";
import { writeJsonResponse } from "./json.ts";
import { sseFrameText, streamHeaders, writeSseEvents } from "./sse.ts";

/** Consecutive sse frames as HTTP writes them: one buffer a write. */
export interface EncodedWrites {
  readonly type: "encoded_writes";
  readonly writes: ReadonlyArray<Buffer>;
}

/** A head line as HTTP sends it: the stream's status and headers, at once. */
export interface StreamHeadPart {
  readonly type: "stream_head";
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** A run of answer pieces as HTTP writes it: its sse frames cut into writes, its head, other lines as recorded. */
export type HttpRun = ReadonlyArray<EncodedWrites | StreamHeadPart | AnswerEntry>;

/**
 * Encodes a run of answer pieces once, when the transcript is loaded. Every sse frame is its
 * own write, cut further at its plain `cut` offsets; a frame with `join` shares its last write
 * with the next frame's first.
 */
export const prepareHttpRun = (run: AnswerRun): HttpRun => {
  const prepared: Array<EncodedWrites | StreamHeadPart | AnswerEntry> = [];
  let writes: Array<Buffer> = [];
  let joinNext = false;
  const flush = () => {
    if (writes.length > 0) prepared.push({ type: "encoded_writes", writes });
    writes = [];
    joinNext = false;
  };
  for (const { entry, from, to } of run) {
    if (entry.type === "emit_inbound" && entry.sse !== undefined) {
      const bytes = Buffer.from(sseFrameText(entry.sse), "utf8");
      const end = to ?? bytes.length;
      const inside = (entry.cut ?? []).flatMap((cut) => (typeof cut === "number" && cut > from && cut < end ? [cut] : []));
      const bounds = [from, ...inside, end];
      const pieces = bounds.slice(1).map((stop, index) => bytes.subarray(bounds[index], stop));
      const [first, ...rest] = pieces;
      if (first !== undefined) {
        const last = writes.at(-1);
        if (joinNext && last !== undefined) writes[writes.length - 1] = Buffer.concat([last, first]);
        else writes.push(first);
      }
      writes.push(...rest);
      joinNext = entry.join === true && to === undefined;
    } else if (entry.type === "emit_inbound" && entry.head !== undefined) {
      flush();
      prepared.push({ type: "stream_head", status: entry.head.status, headers: streamHeaders(entry.head.headers) });
    } else {
      flush();
      prepared.push(entry);
    }
  }
  flush();
  return prepared;
};

/** Writes one part of a run: encoded writes, a stream's head, a whole JSON response, a fail as its status and body, a disconnect as a dropped connection. */
const writePart = (response: HttpResponseWriter, part: EncodedWrites | StreamHeadPart | AnswerEntry): Effect.Effect<void> =>
  Effect.suspend(() => {
    switch (part.type) {
      case "encoded_writes":
        return writeSseEvents(response, part.writes);
      case "stream_head":
        response.writeHead(part.status, part.headers);
        response.flushHeaders();
        return Effect.void;
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
