import { randomBytes } from "node:crypto";
import * as Predicate from "effect/Predicate";
import { TranscriptError, type ReplayMismatchError } from "../errors.ts";
import { requestExcerpt } from "../runtime/request-excerpt.ts";
import type { Transcript } from "../transcript/transcript.ts";
import { checkWebSocketExchanges } from "../ws/websocket-framing.ts";
import type { WebSocketProviderFormat } from "./provider-format.ts";

/**
 * OpenAI Realtime over WebSocket, as the `openai` package's `OpenAIRealtimeWS` speaks it: the
 * app opens `GET <base path>/realtime?model=<model>`, the server says `session.created`, and
 * both sides send JSON text messages, each an event object with a string `type`. The app's
 * events are expect_outbound `message` patterns; the server's are emit_inbound messages.
 */

/** The events a Realtime client sends (RealtimeClientEvent in the SDK). */
const clientEvents = new Set([
  "session.update",
  "input_audio_buffer.append",
  "input_audio_buffer.commit",
  "input_audio_buffer.clear",
  "output_audio_buffer.clear",
  "conversation.item.create",
  "conversation.item.retrieve",
  "conversation.item.truncate",
  "conversation.item.delete",
  "response.create",
  "response.cancel",
]);

/** The server events whose string `delta` the app appends to what it shows. */
const deltaEvents = new Set([
  "response.output_text.delta",
  "response.output_audio_transcript.delta",
  "response.function_call_arguments.delta",
  "response.mcp_call_arguments.delta",
]);

const serverEventExample =
  '{"type":"emit_inbound","message":{"type":"session.created","event_id":"event_CbqyYnuKbPFa2VUJZvBTK","session":{…}}}';

/** What is wrong with one server event, or undefined; `responses` follows each response id from response.created to response.done, in file order. */
const serverEventProblem = (
  message: unknown,
  responses: Map<string, { readonly state: "open" | "done"; readonly line: number }>,
  line: number,
): { readonly problem: string; readonly fix: string } | undefined => {
  if (!Predicate.isObject(message) || typeof message["type"] !== "string") {
    return {
      problem: `a Realtime server event is an object with a string "type", got ${JSON.stringify(message)?.slice(0, 80) ?? "nothing"}`,
      fix: `Write the event as the server sent it, like ${serverEventExample}`,
    };
  }
  const type = message["type"];
  if (typeof message["event_id"] !== "string") {
    return {
      problem: `the ${type} event has no string "event_id"`,
      fix: 'Add the server\'s id, like "event_id":"event_CbqyYnuKbPFa2VUJZvBTK"',
    };
  }
  if (type === "error") {
    const details = message["error"];
    return Predicate.isObject(details) && typeof details["message"] === "string" && typeof details["type"] === "string"
      ? undefined
      : {
          problem: 'an error event needs "error" with a string "message" and "type": the client builds its OpenAIRealtimeError from them',
          fix: 'Write it like {"type":"error","event_id":"event_…","error":{"type":"invalid_request_error","code":"invalid_value","message":"…","param":null,"event_id":null}}',
        };
  }
  if (deltaEvents.has(type) && typeof message["delta"] !== "string") {
    return { problem: `the ${type} event has no string "delta"`, fix: 'Add the text it streams, like "delta":"Hello"' };
  }
  if (type === "response.created" || type === "response.done") {
    const response = message["response"];
    const id = Predicate.isObject(response) ? response["id"] : undefined;
    if (typeof id !== "string") {
      return {
        problem: `the ${type} event needs "response" with a string "id"`,
        fix: 'Add the response, like "response":{"object":"realtime.response","id":"resp_…",…}',
      };
    }
    const known = responses.get(id);
    if (type === "response.created") {
      if (known !== undefined)
        return { problem: `response ${id} was already created at line ${known.line}`, fix: "Give each response its own id" };
      responses.set(id, { state: "open", line });
      return undefined;
    }
    if (known?.state !== "open") {
      return {
        problem:
          known === undefined
            ? `response.done for ${id}, which no response.created above it started`
            : `response ${id} is already done at line ${known.line}`,
        fix: `Start it with a response.created event for ${id} above, as the server does`,
      };
    }
    responses.set(id, { state: "done", line });
    return undefined;
  }
  const responseId = message["response_id"];
  if (type.startsWith("response.") && typeof responseId === "string") {
    const known = responses.get(responseId);
    if (known === undefined) {
      return {
        problem: `the ${type} event belongs to response ${responseId}, which no response.created above it started`,
        fix: `Put the response.created event of ${responseId} above it, as the server sends it first`,
      };
    }
    if (known.state === "done") {
      return {
        problem: `the ${type} event belongs to response ${responseId}, which ended with response.done at line ${known.line}`,
        fix: "Move it above the response.done, which is the last event of a response",
      };
    }
  }
  return undefined;
};

const checkFraming = (transcript: Transcript): TranscriptError | undefined => {
  const shared = checkWebSocketExchanges(transcript);
  if (shared !== undefined) return shared;
  const error = (line: number, problem: string, fix: string) =>
    new TranscriptError({ file: transcript.file, line, code: "framing", problem, fix });
  const responses = new Map<string, { readonly state: "open" | "done"; readonly line: number }>();
  for (const entry of transcript.entries) {
    if (entry.type === "expect_outbound" && entry.request === undefined) {
      const pattern = entry.message;
      if (!Predicate.isObject(pattern) || !Object.hasOwn(pattern, "type")) {
        return error(
          entry.line,
          'expect_outbound.message must be a pattern object with the client event\'s "type"',
          'Write it like {"type":"expect_outbound","message":{"type":"response.create"}}',
        );
      }
      const type = pattern["type"];
      if (typeof type === "string" && !clientEvents.has(type)) {
        return error(
          entry.line,
          `"${type}" is not an event a Realtime client sends, so no message would match it`,
          `Use one of ${[...clientEvents].join(", ")}`,
        );
      }
    }
    if (entry.type === "emit_inbound") {
      const problem = serverEventProblem(entry.message, responses, entry.line);
      if (problem !== undefined) return error(entry.line, problem.problem, problem.fix);
    }
  }
  return undefined;
};

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A fresh server event id in OpenAI's shape, like event_CbqyYnuKbPFa2VUJZvBTK. */
const eventId = (): string => `event_${[...randomBytes(21)].map((byte) => base62[byte % base62.length]).join("")}`;

/**
 * A message the transcript did not expect gets the server's `error` event, as OpenAI answers a
 * bad client event: `invalid_request_error` with code `replay_mismatch`, the client event's
 * `event_id`, and a message naming the transcript line it was held against and the diff. The
 * client raises it as an OpenAIRealtimeError on its `error` listener; the session stays open.
 */
const answerMismatch = (message: unknown, mismatch: ReplayMismatchError): unknown => {
  const event = Predicate.isObject(message) ? message : undefined;
  const type =
    typeof event?.["type"] === "string"
      ? `this ${event["type"]} event`
      : typeof message === "string"
        ? "this message, which is not JSON,"
        : "this message";
  const clientEventId = event?.["event_id"];
  return {
    type: "error",
    event_id: eventId(),
    error: {
      type: "invalid_request_error",
      code: "replay_mismatch",
      message: `replay-agent did not expect ${type} (${requestExcerpt(message)}): ${mismatch.message}`,
      param: null,
      event_id: typeof clientEventId === "string" ? clientEventId : null,
    },
  };
};

export const openAiRealtime: WebSocketProviderFormat = {
  checkFraming,
  answerMismatch,
  credentials: { env: "OPENAI_API_KEY", headers: (key) => ({ authorization: `Bearer ${key}` }) },
  hosts: ["api.openai.com"],
};
