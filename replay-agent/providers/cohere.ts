import type { SseFrame } from "../transcript/schema.ts";
import { endsWith, httpFraming, sseOnly, stillOpen, violation, type FrameVerdict } from "./http-framing.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

/**
 * The cohere wire format: Cohere's v2 chat (`POST /v2/chat`) as the `cohere-ai` SDK's
 * `CohereClientV2` calls it. With `stream: true` the answer is server-sent events,
 * `event: <type>` and `data: <event JSON>`: message-start, then content blocks (content-start,
 * content-delta, content-end; citation-start and citation-end inside them), or a tool plan
 * (tool-plan-delta) and tool calls (tool-call-start, tool-call-delta, tool-call-end), and
 * message-end last, with the finish reason and usage. There is no `[DONE]`. The SDK reads each
 * `data:` line as one event, its `type` naming it (the event name is not read), and stops at a
 * data line holding `[DONE]`. With `stream: false` the answer is one JSON body; an error status
 * is raised as the SDK's error class for it, its JSON body as `body`.
 */

const messageEnd =
  '{"type":"emit_inbound","sse":{"event":"message-end","data":{"type":"message-end","delta":{"finish_reason":"COMPLETE","usage":{…}}}}}';

/** What a stream has open: nothing, a content block or a tool call, with its index when it had one. */
type Open = { readonly kind: "none" } | { readonly kind: "content" | "tool call"; readonly index: unknown };

const opening: Readonly<Record<string, "content" | "tool call">> = { "content-start": "content", "tool-call-start": "tool call" };
const inside: Readonly<Record<string, "content" | "tool call">> = {
  "content-delta": "content",
  "content-end": "content",
  "tool-call-delta": "tool call",
  "tool-call-end": "tool call",
};
const closing = new Set(["content-end", "tool-call-end"]);
const startOf = { content: "content-start", "tool call": "tool-call-start" } as const;
const endOf = { content: "content-end", "tool call": "tool-call-end" } as const;

const described = (open: Open): string =>
  open.kind === "none" ? "nothing is open" : `${open.kind} ${JSON.stringify(open.index) ?? "(no index)"} is open`;

/** Checks one stream's events: typed, named as their type when named, message-start first, blocks opened and closed in turn, message-end last. */
const checkStream = () => {
  let started = false;
  let open: Open = { kind: "none" };
  return (frame: SseFrame): FrameVerdict => {
    if (frame.data === "[DONE]") {
      return violation(
        "[DONE] in a Cohere stream, which ends with message-end and sends no [DONE]",
        `Remove it; end the stream with ${messageEnd}`,
      );
    }
    const type = frame.data["type"];
    if (typeof type !== "string") {
      return violation(
        'a Cohere event without a string "type", which the SDK reads to tell the events apart',
        'Keep the event JSON as Cohere sent it, with its "type", like "content-delta"',
      );
    }
    if (frame.event !== undefined && frame.event !== type) {
      return violation(
        `the event name "${frame.event}" differs from its data's type "${type}"`,
        `Name the event as Cohere does: "event":"${type}"`,
      );
    }
    if (!started) {
      if (type !== "message-start")
        return violation(`the stream starts with ${type}, not message-start`, "Start it with the message-start event Cohere sent");
      started = true;
      return stillOpen;
    }
    if (type === "message-start") {
      return violation("a second message-start in one stream", "Start the next message's stream under its own expect_outbound line");
    }
    const index = frame.data["index"];
    const opens = opening[type];
    if (opens !== undefined) {
      if (open.kind !== "none") {
        return violation(`${type} while ${described(open)}`, `Close it with ${endOf[open.kind]} first`);
      }
      open = { kind: opens, index };
      return stillOpen;
    }
    const within = inside[type];
    if (within !== undefined) {
      if (open.kind !== within || (index !== undefined && open.index !== undefined && index !== open.index)) {
        return violation(
          `${type}${index === undefined ? "" : ` for index ${JSON.stringify(index)}`} while ${described(open)}`,
          `Open the ${within} with ${startOf[within]} before its ${type}, with the same "index"`,
        );
      }
      if (closing.has(type)) open = { kind: "none" };
      return stillOpen;
    }
    if (type === "tool-plan-delta" || type === "message-end") {
      if (open.kind !== "none") return violation(`${type} while ${described(open)}`, `Close it with ${endOf[open.kind]} first`);
      return type === "message-end" ? endsWith("message-end") : stillOpen;
    }
    return stillOpen;
  };
};

export const cohere: HttpProviderFormat = {
  hosts: ["api.cohere.com", "api.cohere.ai"],
  checkFraming: httpFraming({ ending: "message-end", endingExample: messageEnd, open: sseOnly(checkStream) }),
  credentials: { env: "CO_API_KEY", headers: (key) => ({ authorization: `Bearer ${key}` }) },
};
