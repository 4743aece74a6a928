import type { TranscriptEntry } from "./transcript.ts";

/** A value shown inside a one-line summary: strings bare, patterns as compact JSON. */
const show = (value: unknown): string => (typeof value === "string" ? value : (JSON.stringify(value) ?? "?"));

/** One line that says what an entry is, e.g. `expect_outbound POST /v1/chat/completions`. */
export const describeEntry = (entry: TranscriptEntry): string => {
  switch (entry.type) {
    case "expect_outbound":
      if (entry.spawn !== undefined) return `expect_outbound spawn ${show(entry.spawn.args).slice(0, 80)}`;
      return entry.request !== undefined
        ? `expect_outbound ${show(entry.request.method)} ${show(entry.request.path)}`
        : `expect_outbound ${show(entry.message).slice(0, 80)}`;
    case "emit_inbound":
      if (entry.sse !== undefined) {
        const event = entry.sse.event === undefined ? "" : ` ${entry.sse.event}`;
        return entry.sse.data === "[DONE]" ? `emit_inbound sse${event} [DONE]` : `emit_inbound sse${event} frame`;
      }
      if (Object.hasOwn(entry, "ndjson")) return "emit_inbound ndjson line";
      if (entry.eventstream !== undefined) return `emit_inbound eventstream ${entry.eventstream.headers[":event-type"] ?? "message"}`;
      if (entry.response !== undefined) return `emit_inbound response ${entry.response.status}`;
      if (entry.head !== undefined) return `emit_inbound head ${entry.head.status}`;
      return "emit_inbound message";
    case "pause":
      return `pause ${entry.name}`;
    case "delay":
      return `delay ${entry.ms}ms`;
    case "fail":
      return `fail ${entry.status}`;
    case "disconnect":
      return "disconnect";
    case "exit":
      return `exit ${entry.code}`;
    case "mark":
      return `mark ${entry.name}`;
    case "wait":
      return `wait for ${entry.for}`;
    case "hold":
      return "hold (the answer stays open)";
  }
};
