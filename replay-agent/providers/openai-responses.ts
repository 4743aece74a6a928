import type { SseFrame } from "../transcript/schema.ts";
import { endsWith, httpFraming, sseOnly, stillOpen, violation, type FrameVerdict } from "./http-framing.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

/**
 * The openai-responses wire format (`POST /v1/responses`). A streamed answer is a run of typed
 * events, `event: <type>` and `data: <event JSON>`, each carrying a `sequence_number` that
 * increases; it ends with a terminal event and has no `[DONE]`. Non-streamed answers and
 * `fail` lines are whole JSON responses, as in openai-chat.
 */

const terminalEvents = new Set(["response.completed", "response.failed", "response.incomplete"]);

const completed =
  '{"type":"emit_inbound","sse":{"event":"response.completed","data":{"type":"response.completed","sequence_number":9,"response":{"id":"resp_…","status":"completed","output":[…],"usage":{…}}}}}';

/** Checks one stream's events: typed, named as their type when named, numbered in increasing order. */
const checkStream = () => {
  let previous: number | undefined;
  return (frame: SseFrame): FrameVerdict => {
    if (frame.data === "[DONE]") {
      return violation(
        "[DONE] in an openai-responses stream, which ends with its terminal event instead",
        `Remove it; end the stream with ${completed}`,
      );
    }
    const type = frame.data["type"];
    const sequence = frame.data["sequence_number"];
    if (typeof type !== "string") {
      return violation(
        'a Responses event without a string "type"',
        'Keep the event JSON as the provider sent it, with its "type", like "response.output_text.delta"',
      );
    }
    if (frame.event !== undefined && frame.event !== type) {
      return violation(
        `the event name "${frame.event}" differs from its data's type "${type}"`,
        `Name the event as the provider does: "event":"${type}"`,
      );
    }
    if (typeof sequence !== "number" || !Number.isInteger(sequence)) {
      return violation(
        `${type} has no integer sequence_number`,
        'Keep each event\'s "sequence_number" as recorded: 0, 1, 2, … in stream order',
      );
    }
    if (previous !== undefined && sequence <= previous) {
      return violation(
        `sequence_number ${sequence} does not increase (the frame before has ${previous})`,
        `Number the events in stream order; this one needs a sequence_number above ${previous}`,
      );
    }
    previous = sequence;
    return terminalEvents.has(type) ? endsWith(type) : stillOpen;
  };
};

export const openAiResponses: HttpProviderFormat = {
  hosts: ["api.openai.com"],
  checkFraming: httpFraming({
    ending: "a terminal event (response.completed, response.failed or response.incomplete)",
    endingExample: completed,
    open: sseOnly(checkStream),
  }),
  credentials: { env: "OPENAI_API_KEY", headers: (key) => ({ authorization: `Bearer ${key}` }) },
};
