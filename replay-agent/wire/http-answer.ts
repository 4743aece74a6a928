import * as Effect from "effect/Effect";
import type { AnswerRun, ResponseSink } from "../runtime/response-sink.ts";
import type { AnswerEntry, Transcript } from "../transcript/transcript.ts";
import type { HttpResponseWriter } from "./http-response.ts";
import { writeJsonResponse } from "./json.ts";
import { streamHeaders, writeStreamWrites } from "./sse.ts";
import { frameBytes, streamDefaultHeaders, streamFrameOf, type StreamKind } from "./stream-frame.ts";

/** Consecutive streamed frames as HTTP writes them: one buffer a write, and the stream's default headers. */
export interface EncodedWrites {
  readonly type: "encoded_writes";
  readonly writes: ReadonlyArray<Buffer>;
  readonly headers: Readonly<Record<string, string>>;
}

/** A head line as HTTP sends it: the stream's status and headers, at once. */
export interface StreamHeadPart {
  readonly type: "stream_head";
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** A run of answer pieces as HTTP writes it: its sse frames cut into writes, its head, other lines as recorded. */
export type HttpRun = ReadonlyArray<EncodedWrites | StreamHeadPart | AnswerEntry>;

/** The kind of stream each head line starts: the kind of the first streamed frame after it in its answer (sse when none follows). */
const headKinds = (transcript: Transcript): ReadonlyMap<number, StreamKind> => {
  const kinds = new Map<number, StreamKind>();
  let heads: Array<number> = [];
  for (const entry of transcript.entries) {
    if (entry.type === "expect_outbound") heads = [];
    if (entry.type !== "emit_inbound") continue;
    if (entry.head !== undefined) heads.push(entry.line);
    const frame = streamFrameOf(entry);
    if (frame !== undefined) {
      for (const line of heads) kinds.set(line, frame.kind);
      heads = [];
    }
  }
  return kinds;
};

/**
 * Encodes a run of answer pieces of `transcript` once, when it is loaded. Every streamed frame
 * (sse, ndjson or eventstream) is its own write, cut further at its plain `cut` offsets; a frame
 * with `join` shares its last write with the next frame's first.
 */
export const prepareHttpRunOf = (transcript: Transcript): ((run: AnswerRun) => HttpRun) => {
  const kinds = headKinds(transcript);
  return (run) => prepareHttpRun(run, (line) => kinds.get(line) ?? "sse");
};

const prepareHttpRun = (run: AnswerRun, headKind: (line: number) => StreamKind): HttpRun => {
  const prepared: Array<EncodedWrites | StreamHeadPart | AnswerEntry> = [];
  let writes: Array<Buffer> = [];
  let kind: StreamKind = "sse";
  let joinNext = false;
  const flush = () => {
    if (writes.length > 0) prepared.push({ type: "encoded_writes", writes, headers: streamDefaultHeaders[kind] });
    writes = [];
    joinNext = false;
  };
  for (const { entry, from, to } of run) {
    const frame = entry.type === "emit_inbound" ? streamFrameOf(entry) : undefined;
    if (entry.type === "emit_inbound" && frame !== undefined) {
      kind = frame.kind;
      const bytes = frameBytes(frame);
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
      const defaults = streamDefaultHeaders[headKind(entry.line)];
      prepared.push({ type: "stream_head", status: entry.head.status, headers: streamHeaders(entry.head.headers, defaults) });
    } else {
      flush();
      prepared.push(entry);
    }
  }
  flush();
  return prepared;
};

/** Writes one part of a run: encoded writes, a stream's head, a whole JSON response, a fail as its status and body, a disconnect as a dropped connection; a message belongs to another transport and writes nothing. */
const writePart = (response: HttpResponseWriter, part: EncodedWrites | StreamHeadPart | AnswerEntry): Effect.Effect<void> =>
  Effect.suspend(() => {
    switch (part.type) {
      case "encoded_writes":
        return writeStreamWrites(response, part.writes, part.headers);
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

/** Writes one request's prepared answer runs to an HTTP response exactly as recorded, whatever the provider; it is closed when the app drops the connection. */
export const httpAnswerSink = (response: HttpResponseWriter): ResponseSink<HttpRun> => ({
  send: (run) => Effect.forEach(run, (part) => writePart(response, part), { discard: true }),
  end: Effect.sync(() => response.end()),
  closed: Effect.callback<void>((resume) => Effect.sync(response.onClose(() => resume(Effect.void)))),
});
