import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import type { EmitInbound, EventStreamFrame, SseFrame } from "../transcript/schema.ts";
import { formatNdjsonLine } from "./ndjson.ts";
import { sseFrameText } from "./sse.ts";

/** How an HTTP stream frames its events: server-sent events, newline-delimited JSON, or AWS event-stream binary messages. */
export type StreamKind = "sse" | "ndjson" | "eventstream";

export const streamKinds: ReadonlyArray<StreamKind> = ["sse", "ndjson", "eventstream"];

/** One streamed frame of an answer, by its kind. */
export type StreamFrame =
  | { readonly kind: "sse"; readonly sse: SseFrame }
  | { readonly kind: "ndjson"; readonly value: unknown }
  | { readonly kind: "eventstream"; readonly frame: EventStreamFrame };

/** The streamed frame an emit_inbound line carries, if it carries one. */
export const streamFrameOf = (entry: EmitInbound): StreamFrame | undefined => {
  if (entry.sse !== undefined) return { kind: "sse", sse: entry.sse };
  if (Object.hasOwn(entry, "ndjson")) return { kind: "ndjson", value: entry.ndjson };
  if (entry.eventstream !== undefined) return { kind: "eventstream", frame: entry.eventstream };
  return undefined;
};

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One event-stream message as its binary frame: prelude, its CRC, string headers, the JSON payload, and the message CRC. */
export const eventStreamBytes = (frame: EventStreamFrame): Buffer =>
  Buffer.from(
    codec.encode({
      headers: Object.fromEntries(Object.entries(frame.headers).map(([name, value]) => [name, { type: "string", value }])),
      body: fromUtf8(JSON.stringify(frame.payload)),
    }),
  );

/** A frame's bytes as they go on the wire; `cut` offsets count these bytes. */
export const frameBytes = (frame: StreamFrame): Buffer => {
  switch (frame.kind) {
    case "sse":
      return Buffer.from(sseFrameText(frame.sse), "utf8");
    case "ndjson":
      return Buffer.from(formatNdjsonLine(frame.value), "utf8");
    case "eventstream":
      return eventStreamBytes(frame.frame);
  }
};

/** What a stream of each kind is sent with when its transcript sets no head. */
export const streamDefaultHeaders: { readonly [K in StreamKind]: Readonly<Record<string, string>> } = {
  sse: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" },
  ndjson: { "content-type": "application/x-ndjson" },
  eventstream: { "content-type": "application/vnd.amazon.eventstream" },
};
