import { ids } from "./ids.ts";
import { created, openaiAnswerModel, openaiFail, openaiHeaders } from "./openai-common.ts";
import {
  endsWith,
  modelField,
  sseFrame,
  streamField,
  textContent,
  type Frame,
  type PlannedAnswer,
  type ProviderTemplate,
  type TextMatch,
} from "./template.ts";
import { tokenize } from "./tokenize.ts";

/**
 * The Responses API as `POST /v1/responses` answers: named events numbered by
 * `sequence_number` from 0, `response.created` and `response.in_progress`, then each output item
 * (a reasoning item with its summary deltas, a message with its text deltas, a function call with
 * its argument deltas) opened, streamed and done, and `response.completed` carrying the whole
 * response with its usage.
 */

const textPart = (text: string) => ({ type: "output_text", annotations: [], logprobs: [], text });

const summaryPart = (text: string) => ({ type: "summary_text", text });

/** The output items of a finished answer: its reasoning, its message, then its function calls. */
const outputOf = (answer: PlannedAnswer) => [
  ...(answer.thinking === undefined
    ? []
    : [{ id: ids.reasoning(answer.seed), type: "reasoning" as const, summary: [summaryPart(answer.thinking)] }]),
  ...(answer.text === undefined
    ? []
    : [
        {
          id: ids.responseMessage(answer.seed),
          type: "message" as const,
          status: "completed",
          content: [textPart(answer.text)],
          role: "assistant",
        },
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
  reasoning: answer.thinking === undefined ? { effort: null, summary: null } : { effort: "medium", summary: "auto" },
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
        output_tokens_details: { reasoning_tokens: answer.usage.thinking },
        total_tokens: answer.usage.input + answer.usage.output,
      }
    : null,
  user: null,
  metadata: {},
});

const stream = (answer: PlannedAnswer): ReadonlyArray<Frame> => {
  const frames: Array<Frame> = [];
  const push = (type: string, fields: Record<string, unknown>, delta = false) =>
    frames.push(sseFrame({ event: type, data: { type, sequence_number: frames.length, ...fields } }, delta));
  push("response.created", { response: responseOf(answer, false) });
  push("response.in_progress", { response: responseOf(answer, false) });
  const output = outputOf(answer);
  for (const [outputIndex, item] of output.entries()) {
    if (item.type === "reasoning") {
      const text = answer.thinking ?? "";
      const at = { item_id: item.id, output_index: outputIndex, summary_index: 0 };
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, summary: [] } });
      push("response.reasoning_summary_part.added", { ...at, part: summaryPart("") });
      for (const delta of tokenize(text)) push("response.reasoning_summary_text.delta", { ...at, delta }, true);
      push("response.reasoning_summary_text.done", { ...at, text });
      push("response.reasoning_summary_part.done", { ...at, part: summaryPart(text) });
    } else if (item.type === "message") {
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

/** The input ends with the person's message; `input` may also be that message alone, as a string. */
const userTurn = (text: TextMatch) => ({
  input: { $anyOf: [text, { $last: { role: "user", content: textContent(text, "input_text") } }] },
});

export const openaiResponsesTemplate: ProviderTemplate = {
  defaultModel: (thinking) => (thinking ? "gpt-5-mini" : "gpt-4o-mini"),
  request: ({ model, stream, thinking }) => ({
    path: "/v1/responses",
    body: {
      ...modelField(model),
      ...streamField(stream),
      ...(thinking ? { reasoning: { summary: { $regex: "^(auto|concise|detailed)$" } } } : {}),
    },
  }),
  answerModel: openaiAnswerModel,
  toolId: ids.openaiCall,
  takesToolIds: true,
  thinking: true,
  userTurn,
  toolResultTurn: (calls) => {
    const last = calls[calls.length - 1];
    return endsWith("input", {
      type: "function_call_output",
      call_id: last?.id,
      ...(last?.result === undefined ? {} : { output: textContent({ $contains: last.result }, "input_text") }),
    });
  },
  streamHeaders: openaiHeaders,
  stream,
  response: (answer) => ({ status: 200, headers: openaiHeaders(answer.seed), body: responseOf(answer, true) }),
  fail: openaiFail,
};
