import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import * as Predicate from "effect/Predicate";
import { parseBody } from "../http/read-request.ts";
import type { EventStreamFrame, SseFrame } from "../transcript/schema.ts";
import { makeSseParser } from "../wire/sse-parse.ts";
import type { StreamFrame, StreamKind } from "../wire/stream-frame.ts";
import type { Redactor } from "./redact.ts";

/** A recorded frame: the field it takes on its emit_inbound line, and the frame the replay agent writes from it. */
export interface RecordedFrame {
  readonly line: { readonly sse: SseFrame } | { readonly ndjson: unknown } | { readonly eventstream: EventStreamFrame };
  readonly frame: StreamFrame;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** The event one block of an event stream holds, nothing for a comment or empty block, or why it cannot be recorded. */
const sseFrameOf = (bytes: Uint8Array, redactor: Redactor): RecordedFrame | string | undefined => {
  const text = new TextDecoder().decode(bytes).replace(/\r\n?/g, "\n");
  const event = makeSseParser().push(text)[0];
  if (event === undefined) return undefined;
  const named = event.event === undefined ? {} : { event: event.event };
  if (event.data === "[DONE]") return sseOf({ ...named, data: "[DONE]" });
  const data = redactor.value(parseBody(event.data));
  if (!Predicate.isObject(data)) return `skipped an event whose data is not a JSON object: ${redactor.text(event.data).slice(0, 80)}`;
  return sseOf({ ...named, data });
};

const sseOf = (sse: SseFrame): RecordedFrame => ({ line: { sse }, frame: { kind: "sse", sse } });

/** The value one line of an NDJSON stream holds, nothing for a blank line, or why it cannot be recorded. */
const ndjsonFrameOf = (bytes: Uint8Array, redactor: Redactor): RecordedFrame | string | undefined => {
  const text = new TextDecoder().decode(bytes).trim();
  if (text === "") return undefined;
  try {
    const value = redactor.value(JSON.parse(text));
    return { line: { ndjson: value }, frame: { kind: "ndjson", value } };
  } catch {
    return `skipped a line that is not JSON: ${redactor.text(text).slice(0, 80)}`;
  }
};

/** The headers and JSON payload one event-stream message holds, or why it cannot be recorded. */
const eventStreamFrameOf = (bytes: Uint8Array, redactor: Redactor): RecordedFrame | string => {
  let message;
  try {
    message = codec.decode(bytes);
  } catch (error) {
    return `skipped an event-stream message that does not decode (${error instanceof Error ? error.message : String(error)})`;
  }
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(message.headers)) {
    if (header.type !== "string")
      return `skipped an event-stream message with a ${header.type} header "${name}": only string headers are recorded`;
    headers[name] = redactor.text(header.value);
  }
  const payload = redactor.value(parseBody(new TextDecoder().decode(message.body)));
  if (!Predicate.isObject(payload)) return "skipped an event-stream message whose payload is not a JSON object";
  const frame = { headers, payload };
  return { line: { eventstream: frame }, frame: { kind: "eventstream", frame } };
};

/** What one block of a stream of `kind` records as: a frame, nothing, or a note on why it was skipped. */
export const recordedFrameOf = (kind: StreamKind, bytes: Uint8Array, redactor: Redactor): RecordedFrame | string | undefined => {
  switch (kind) {
    case "sse":
      return sseFrameOf(bytes, redactor);
    case "ndjson":
      return ndjsonFrameOf(bytes, redactor);
    case "eventstream":
      return eventStreamFrameOf(bytes, redactor);
  }
};
