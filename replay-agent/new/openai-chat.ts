import {
  endsWith,
  modelField,
  sseFrame,
  streamField,
  textContent,
  type Frame,
  type PlannedAnswer,
  type ProviderTemplate,
} from "./template.ts";
import { ids } from "./ids.ts";
import { created, openaiAnswerModel, openaiFail, openaiHeaders, systemFingerprint } from "./openai-common.ts";
import { tokenize } from "./tokenize.ts";

/**
 * Chat Completions as `POST /v1/chat/completions` answers: `chat.completion.chunk` frames, the
 * first carrying the role, one per token, tool calls opened by a chunk with their id and name and
 * then their arguments in fragments, a chunk with the finish_reason, the usage chunk (no choices)
 * when the request asked for it, and `[DONE]`.
 */

const usageOf = (answer: PlannedAnswer) => ({
  prompt_tokens: answer.usage.input,
  completion_tokens: answer.usage.output,
  total_tokens: answer.usage.input + answer.usage.output,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
});

const finishReason = (answer: PlannedAnswer) => (answer.calls.length > 0 ? "tool_calls" : "stop");

const stream = (answer: PlannedAnswer): ReadonlyArray<Frame> => {
  const id = ids.chatCompletion(answer.seed);
  const chunk = (choices: ReadonlyArray<unknown>, usage: unknown = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: answer.model,
    service_tier: "default",
    system_fingerprint: systemFingerprint,
    choices,
    ...(answer.usageChunk ? { usage } : {}),
  });
  const choice = (delta: unknown, finish: string | null = null) => chunk([{ index: 0, delta, logprobs: null, finish_reason: finish }]);
  const frames: Array<Frame> = [];
  const push = (data: Record<string, unknown>, delta: boolean) => frames.push(sseFrame({ data }, delta));
  if (answer.text !== undefined) {
    push(choice({ role: "assistant", content: "", refusal: null }), false);
    for (const content of tokenize(answer.text)) push(choice({ content }), true);
  }
  for (const [index, call] of answer.calls.entries()) {
    const opening = [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }];
    const first = index === 0 && answer.text === undefined;
    push(choice(first ? { role: "assistant", content: null, tool_calls: opening, refusal: null } : { tool_calls: opening }), false);
    for (const fragment of tokenize(JSON.stringify(call.arguments)))
      push(choice({ tool_calls: [{ index, function: { arguments: fragment } }] }), true);
  }
  push(choice({}, finishReason(answer)), false);
  if (answer.usageChunk) push(chunk([], usageOf(answer)), false);
  frames.push(sseFrame({ data: "[DONE]" }));
  return frames;
};

export const openaiChatTemplate: ProviderTemplate = {
  defaultModel: () => "gpt-4o-mini",
  request: ({ model, stream, usageChunk }) => ({
    path: "/v1/chat/completions",
    body: { ...modelField(model), ...streamField(stream), ...(usageChunk ? { stream_options: { include_usage: true } } : {}) },
  }),
  answerModel: openaiAnswerModel,
  toolId: ids.openaiCall,
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
  streamHeaders: openaiHeaders,
  stream,
  response: (answer) => ({
    status: 200,
    headers: openaiHeaders(answer.seed),
    body: {
      id: ids.chatCompletion(answer.seed),
      object: "chat.completion",
      created,
      model: answer.model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: answer.text ?? null,
            refusal: null,
            ...(answer.calls.length === 0
              ? {}
              : {
                  tool_calls: answer.calls.map((call) => ({
                    id: call.id,
                    type: "function",
                    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                  })),
                }),
            annotations: [],
          },
          logprobs: null,
          finish_reason: finishReason(answer),
        },
      ],
      usage: usageOf(answer),
      service_tier: "default",
      system_fingerprint: systemFingerprint,
    },
  }),
  fail: openaiFail,
};
