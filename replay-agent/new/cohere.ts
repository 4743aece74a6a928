import { ids } from "./ids.ts";
import {
  endsWith,
  modelField,
  sseFrame,
  textContent,
  type Frame,
  type HttpAnswer,
  type PlannedAnswer,
  type PlannedFail,
  type ProviderTemplate,
} from "./template.ts";
import { tokenize } from "./tokenize.ts";

/**
 * Cohere's Chat API v2 as `POST /v2/chat` with `"stream": true` answers: named SSE events,
 * `message-start` with the message id, then either the text as a content block (`content-start`,
 * one `content-delta` per token, `content-end`) or, before tool calls, the tool plan
 * (`tool-plan-delta` per token) and each call (`tool-call-start` with its id and name, its
 * arguments in `tool-call-delta` fragments, `tool-call-end`), and `message-end` with the finish
 * reason and the usage. Nothing follows message-end.
 */

const finishReason = (answer: PlannedAnswer) => (answer.calls.length > 0 ? "TOOL_CALL" : "COMPLETE");

const usageOf = (answer: PlannedAnswer) => ({
  billed_units: { input_tokens: answer.usage.input, output_tokens: answer.usage.output },
  tokens: { input_tokens: answer.usage.input, output_tokens: answer.usage.output },
});

/** A tool's arguments as Command models write them: JSON indented by four spaces. */
const argumentsOf = (call: PlannedAnswer["calls"][number]) => JSON.stringify(call.arguments, null, 4);

const stream = (answer: PlannedAnswer): ReadonlyArray<Frame> => {
  const frames: Array<Frame> = [];
  const push = (type: string, fields: Record<string, unknown>, delta = false) =>
    frames.push(sseFrame({ event: type, data: { type, ...fields } }, delta));
  frames.push(
    sseFrame({
      event: "message-start",
      data: {
        id: ids.cohereMessage(answer.seed),
        type: "message-start",
        delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } },
      },
    }),
  );
  if (answer.calls.length > 0) {
    for (const tool_plan of tokenize(answer.text ?? "")) push("tool-plan-delta", { delta: { message: { tool_plan } } }, true);
    for (const [index, call] of answer.calls.entries()) {
      push("tool-call-start", {
        index,
        delta: { message: { tool_calls: { id: call.id, type: "function", function: { name: call.name, arguments: "" } } } },
      });
      for (const fragment of tokenize(argumentsOf(call))) {
        push("tool-call-delta", { index, delta: { message: { tool_calls: { function: { arguments: fragment } } } } }, true);
      }
      push("tool-call-end", { index });
    }
  } else if (answer.text !== undefined) {
    push("content-start", { index: 0, delta: { message: { content: { type: "text", text: "" } } } });
    for (const text of tokenize(answer.text)) push("content-delta", { index: 0, delta: { message: { content: { text } } } }, true);
    push("content-end", { index: 0 });
  }
  push("message-end", { delta: { finish_reason: finishReason(answer), usage: usageOf(answer) } });
  return frames;
};

const response = (answer: PlannedAnswer): HttpAnswer => ({
  status: 200,
  headers: {},
  body: {
    id: ids.cohereMessage(answer.seed),
    message: {
      role: "assistant",
      ...(answer.calls.length > 0
        ? {
            tool_plan: answer.text ?? "",
            tool_calls: answer.calls.map((call) => ({
              id: call.id,
              type: "function",
              function: { name: call.name, arguments: argumentsOf(call) },
            })),
          }
        : { content: [{ type: "text", text: answer.text ?? "" }] }),
    },
    finish_reason: finishReason(answer),
    usage: usageOf(answer),
  },
});

const errorOf = (status: number, model: string): string => {
  switch (status) {
    case 400:
      return "invalid request: the replayed provider refused it.";
    case 401:
      return "invalid api token";
    case 404:
      return `model '${model}' not found, make sure the correct model ID was used and that you have access to the model.`;
    case 429:
      return "You are past the per minute request limit, please wait and try again later.";
    case 503:
      return "service unavailable";
    default:
      return status >= 500
        ? "internal server error, this has been reported to our developers"
        : "invalid request: the replayed provider refused it.";
  }
};

/** An error status with Cohere's error body, `{"id", "message"}`. */
const fail = (planned: PlannedFail): HttpAnswer => ({
  status: planned.status,
  headers: planned.retryAfter === undefined ? {} : { "retry-after": String(planned.retryAfter) },
  body: { id: ids.cohereMessage(planned.seed), message: planned.message ?? errorOf(planned.status, planned.model) },
});

export const cohereTemplate: ProviderTemplate = {
  defaultModel: () => "command-a-03-2025",
  request: ({ model, stream }) => ({
    path: "/v2/chat",
    // Cohere answers whole unless asked to stream: the cohere-ai SDK sends "stream": false, other clients leave it out.
    body: { ...modelField(model), ...(stream === undefined ? {} : { stream: stream ? true : { $anyOf: [false, { $absent: true }] } }) },
  }),
  answerModel: (model) => model,
  toolId: ids.cohereToolCall,
  takesToolIds: true,
  thinking: false,
  userTurn: (text) => endsWith("messages", { role: "user", content: textContent(text, "text") }),
  toolResultTurn: (calls) => {
    const last = calls[calls.length - 1];
    return endsWith("messages", {
      role: "tool",
      tool_call_id: last?.id,
      ...(last?.result === undefined ? {} : { content: textContent({ $contains: last.result }, "text") }),
    });
  },
  streamHeaders: undefined,
  stream,
  response,
  fail,
};
