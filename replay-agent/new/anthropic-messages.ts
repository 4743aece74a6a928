import { ids } from "./ids.ts";
import {
  endsWith,
  modelField,
  sseFrame,
  streamField,
  textContent,
  type Frame,
  type HttpAnswer,
  type PlannedAnswer,
  type PlannedFail,
  type ProviderTemplate,
} from "./template.ts";
import { group, spacedJson, tokenize } from "./tokenize.ts";

/**
 * The Messages API as `POST /v1/messages` answers: `message_start` with the input usage, each
 * content block opened, streamed and stopped (a thinking block's deltas one token each, then its
 * signature; text deltas one token each; a tool_use input as JSON written with spaces, an empty
 * fragment first and then a few tokens per fragment), a `ping` after the first block opens,
 * `message_delta` with the stop reason and output usage, and `message_stop`.
 */

const headers = (seed: string): Readonly<Record<string, string>> => ({ "request-id": ids.anthropicRequest(seed) });

const stopReason = (answer: PlannedAnswer) => (answer.calls.length > 0 ? "tool_use" : "end_turn");

const usageOf = (answer: PlannedAnswer, output: number) => ({
  input_tokens: answer.usage.input,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: output,
  service_tier: "standard",
});

const stream = (answer: PlannedAnswer): ReadonlyArray<Frame> => {
  const frames: Array<Frame> = [];
  const push = (type: string, fields: Record<string, unknown>, delta = false) =>
    frames.push(sseFrame({ event: type, data: { type, ...fields } }, delta));
  const message = {
    id: ids.anthropicMessage(answer.seed),
    type: "message",
    role: "assistant",
    model: answer.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
  };
  push("message_start", { message: { ...message, usage: usageOf(answer, 1) } });
  let index = 0;
  const open = (block: Record<string, unknown>) => {
    push("content_block_start", { index, content_block: block });
    if (index === 0) push("ping", {});
  };
  if (answer.thinking !== undefined) {
    open({ type: "thinking", thinking: "", signature: "" });
    for (const thinking of tokenize(answer.thinking))
      push("content_block_delta", { index, delta: { type: "thinking_delta", thinking } }, true);
    push("content_block_delta", { index, delta: { type: "signature_delta", signature: ids.thinkingSignature(answer.seed) } });
    push("content_block_stop", { index });
    index++;
  }
  if (answer.text !== undefined) {
    open({ type: "text", text: "" });
    for (const text of tokenize(answer.text)) push("content_block_delta", { index, delta: { type: "text_delta", text } }, true);
    push("content_block_stop", { index });
    index++;
  }
  for (const call of answer.calls) {
    open({ type: "tool_use", id: call.id, name: call.name, input: {} });
    push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } });
    for (const partial of group(tokenize(spacedJson(call.arguments)), 5)) {
      push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: partial } }, true);
    }
    push("content_block_stop", { index });
    index++;
  }
  push("message_delta", { delta: { stop_reason: stopReason(answer), stop_sequence: null }, usage: { output_tokens: answer.usage.output } });
  push("message_stop", {});
  return frames;
};

const errorOf = (status: number, model: string): { readonly type: string; readonly message: string } => {
  switch (status) {
    case 400:
      return { type: "invalid_request_error", message: "Invalid request: the replayed provider refused it." };
    case 401:
      return { type: "authentication_error", message: "invalid x-api-key" };
    case 403:
      return { type: "permission_error", message: "Your API key does not have permission to use the specified resource." };
    case 404:
      return { type: "not_found_error", message: `model: ${model}` };
    case 413:
      return { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." };
    case 429:
      return {
        type: "rate_limit_error",
        message: "This request would exceed the rate limit for your organization of 50 requests per minute.",
      };
    case 529:
      return { type: "overloaded_error", message: "Overloaded" };
    default:
      return status >= 500
        ? { type: "api_error", message: "Internal server error" }
        : { type: "invalid_request_error", message: "Invalid request: the replayed provider refused it." };
  }
};

/** An error status with Anthropic's error body (`{"type":"error","error":{type,message},"request_id"}`); a 429 says when to retry. */
const fail = (planned: PlannedFail): HttpAnswer => {
  const error = errorOf(planned.status, planned.model);
  const requestId = ids.anthropicRequest(planned.seed);
  const retryAfter = planned.retryAfter ?? (planned.status === 429 ? 1 : undefined);
  return {
    status: planned.status,
    headers: { ...(retryAfter === undefined ? {} : { "retry-after": String(retryAfter) }), "request-id": requestId },
    body: { type: "error", error: { type: error.type, message: planned.message ?? error.message }, request_id: requestId },
  };
};

export const anthropicMessagesTemplate: ProviderTemplate = {
  defaultModel: () => "claude-sonnet-4-6",
  request: ({ model, stream, thinking }) => ({
    path: "/v1/messages",
    body: { ...modelField(model), ...streamField(stream), ...(thinking ? { thinking: { type: { $regex: "^(enabled|adaptive)$" } } } : {}) },
  }),
  answerModel: (model) => model,
  toolId: ids.toolUse,
  takesToolIds: true,
  thinking: true,
  userTurn: (text) => endsWith("messages", { role: "user", content: textContent(text, "text") }),
  toolResultTurn: (calls) =>
    endsWith("messages", {
      role: "user",
      content: calls.map((call) => ({
        type: "tool_result",
        tool_use_id: call.id,
        ...(call.result === undefined ? {} : { content: textContent({ $contains: call.result }, "text") }),
      })),
    }),
  streamHeaders: headers,
  stream,
  response: (answer) => ({
    status: 200,
    headers: headers(answer.seed),
    body: {
      id: ids.anthropicMessage(answer.seed),
      type: "message",
      role: "assistant",
      model: answer.model,
      content: [
        ...(answer.thinking === undefined
          ? []
          : [{ type: "thinking", thinking: answer.thinking, signature: ids.thinkingSignature(answer.seed) }]),
        ...(answer.text === undefined ? [] : [{ type: "text", text: answer.text }]),
        ...answer.calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.arguments })),
      ],
      stop_reason: stopReason(answer),
      stop_sequence: null,
      usage: usageOf(answer, answer.usage.output),
    },
  }),
  fail,
};
