import type { SseFrame } from "../transcript/schema.ts";
import { endsWith, httpFraming, sseOnly, stillOpen, violation, type FrameVerdict } from "./http-framing.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

/**
 * The anthropic-messages wire format (`POST /v1/messages`). A streamed answer is named events,
 * `event: <type>` and `data: <event JSON>`: message_start, then content blocks each opened by
 * content_block_start, filled by content_block_delta and closed by content_block_stop in index
 * order, message_delta, and message_stop last. `ping` may come anywhere, and an `error` event
 * ends the stream (the SDK raises it as an APIError). The SDK ignores unnamed events, so
 * every frame carries its name.
 */

const messageStop = '{"type":"emit_inbound","sse":{"event":"message_stop","data":{"type":"message_stop"}}}';

const indexOf = (frame: { readonly [key: string]: unknown }): string => JSON.stringify(frame["index"]) ?? "undefined";

/** Checks one stream's events: named, message_start first, content blocks opened and closed in order, message_stop last. */
const checkStream = () => {
  let started = false;
  let openBlock: string | null = null;
  let nextBlock = 0;
  return (frame: SseFrame): FrameVerdict => {
    if (frame.data === "[DONE]") {
      return violation(
        "[DONE] in an anthropic-messages stream, which ends with message_stop instead",
        `Remove it; end the stream with ${messageStop}`,
      );
    }
    const data = frame.data;
    const type = data["type"];
    if (typeof type !== "string") {
      return violation(
        'an Anthropic event without a string "type"',
        'Keep the event JSON as the provider sent it, with its "type", like "content_block_delta"',
      );
    }
    if (frame.event !== type) {
      const problem =
        frame.event === undefined
          ? `a ${type} frame without an event name, which the Anthropic SDK ignores`
          : `the event name "${frame.event}" differs from its data's type "${type}"`;
      return violation(problem, `Name the event as the provider does: "event":"${type}"`);
    }
    if (type === "ping") return stillOpen;
    if (type === "error") return endsWith("the error event");
    if (!started) {
      if (type !== "message_start")
        return violation(`the stream starts with ${type}, not message_start`, "Start it with the message_start event the provider sent");
      started = true;
      return stillOpen;
    }
    const index = indexOf(data);
    switch (type) {
      case "message_start":
        return violation("a second message_start in one stream", "Start the next message's stream under its own expect_outbound line");
      case "content_block_start":
        if (openBlock !== null) {
          return violation(
            `content block ${index} starts while block ${openBlock} is still open`,
            `Close block ${openBlock} with content_block_stop first`,
          );
        }
        if (index !== String(nextBlock)) {
          return violation(
            `content block ${index} starts out of order: the next block is ${nextBlock}`,
            "Number content blocks 0, 1, 2, … in the order they start",
          );
        }
        openBlock = index;
        nextBlock++;
        return stillOpen;
      case "content_block_delta":
      case "content_block_stop":
        if (openBlock !== index) {
          const open = openBlock === null ? "no block is open" : `the open block is ${openBlock}`;
          return violation(
            `${type} for content block ${index}, which is not open (${open})`,
            "Open a block with content_block_start before its deltas, and close the open block only",
          );
        }
        if (type === "content_block_stop") openBlock = null;
        return stillOpen;
      case "message_delta":
      case "message_stop":
        if (openBlock !== null) {
          return violation(
            `${type} while content block ${openBlock} is still open`,
            `Close it first with {"type":"content_block_stop","index":${openBlock}}`,
          );
        }
        return type === "message_stop" ? endsWith("message_stop") : stillOpen;
      default:
        return stillOpen;
    }
  };
};

export const anthropicMessages: HttpProviderFormat = {
  hosts: ["api.anthropic.com"],
  checkFraming: httpFraming({ ending: "message_stop", endingExample: messageStop, open: sseOnly(checkStream) }),
  credentials: { env: "ANTHROPIC_API_KEY", headers: (key) => ({ "x-api-key": key }) },
};
