import type { Frame, PlannedAnswer, ProviderFrames } from "./frames.ts";
import { ids } from "./ids.ts";
import { created, openaiAnswerModel, openaiFail, openaiHeaders } from "./openai-common.ts";
import { tokenize } from "./tokenize.ts";

/**
 * The Responses API as `POST /v1/responses` answers: named events numbered by
 * `sequence_number` from 0, `response.created` and `response.in_progress`, then each output item
 * (a message with its text deltas, a function call with its argument deltas) opened, streamed and
 * done, and `response.completed` carrying the whole response with its usage.
 */

const textPart = (text: string) => ({ type: "output_text", annotations: [], logprobs: [], text });

/** The output items of a finished answer: its message, then its function calls. */
const outputOf = (answer: PlannedAnswer) => [
  ...(answer.text === undefined
    ? []
    : [
        { id: ids.responseMessage(answer.seed), type: "message", status: "completed", content: [textPart(answer.text)], role: "assistant" },
      ]),
  ...answer.calls.map((call, index) => ({
    id: ids.functionCall(`${answer.seed}|${index}`),
    type: "function_call",
    status: "completed",
    arguments: JSON.stringify(call.arguments),
    call_id: call.id,
    name: call.name,
  })),
];

const responseOf = (answer: PlannedAnswer, done: boolean) => ({
  id: ids.response(answer.seed),
  object: "response",
  created_at: created,
  status: done ? "completed" : "in_progress",
  background: false,
  error: null,
  incomplete_details: null,
  instructions: null,
  max_output_tokens: null,
  model: answer.model,
  output: done ? outputOf(answer) : [],
  parallel_tool_calls: true,
  previous_response_id: null,
  reasoning: { effort: null, summary: null },
  service_tier: "default",
  store: true,
  temperature: 1,
  text: { format: { type: "text" }, verbosity: "medium" },
  tool_choice: "auto",
  tools: [],
  top_p: 1,
  truncation: "disabled",
  usage: done
    ? {
        input_tokens: answer.usage.input,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: answer.usage.output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: answer.usage.input + answer.usage.output,
      }
    : null,
  user: null,
  metadata: {},
});

const stream = (answer: PlannedAnswer): ReadonlyArray<Frame> => {
  const frames: Array<Frame> = [];
  const push = (type: string, fields: Record<string, unknown>, delta = false) =>
    frames.push({ sse: { event: type, data: { type, sequence_number: frames.length, ...fields } }, delta });
  push("response.created", { response: responseOf(answer, false) });
  push("response.in_progress", { response: responseOf(answer, false) });
  const output = outputOf(answer);
  for (const [outputIndex, item] of output.entries()) {
    if (item.type === "message") {
      const text = answer.text ?? "";
      const at = { item_id: item.id, output_index: outputIndex, content_index: 0 };
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, status: "in_progress", content: [] } });
      push("response.content_part.added", { ...at, part: textPart("") });
      for (const delta of tokenize(text)) push("response.output_text.delta", { ...at, delta, logprobs: [] }, true);
      push("response.output_text.done", { ...at, text, logprobs: [] });
      push("response.content_part.done", { ...at, part: textPart(text) });
    } else if ("arguments" in item) {
      const at = { item_id: item.id, output_index: outputIndex };
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, status: "in_progress", arguments: "" } });
      for (const delta of tokenize(item.arguments)) push("response.function_call_arguments.delta", { ...at, delta }, true);
      push("response.function_call_arguments.done", { ...at, arguments: item.arguments });
    }
    push("response.output_item.done", { output_index: outputIndex, item });
  }
  push("response.completed", { response: responseOf(answer, true) });
  return frames;
};

export const openaiResponsesFrames: ProviderFrames = {
  path: "/v1/responses",
  defaultModel: "gpt-4o-mini",
  conversation: "input",
  answerModel: openaiAnswerModel,
  toolId: ids.openaiCall,
  userItem: (text) => ({ role: "user", content: text }),
  toolResultItem: (calls) => {
    const last = calls[calls.length - 1];
    return {
      type: "function_call_output",
      call_id: last?.id,
      ...(last?.result === undefined ? {} : { output: { $contains: last.result } }),
    };
  },
  streamFields: () => ({}),
  streamHeaders: openaiHeaders,
  stream,
  response: (answer) => ({ status: 200, headers: openaiHeaders(answer.seed), body: responseOf(answer, true) }),
  fail: openaiFail,
};
