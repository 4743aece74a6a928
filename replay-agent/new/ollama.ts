import {
  endsWith,
  modelField,
  ndjsonFrame,
  type Frame,
  type HttpAnswer,
  type PlannedAnswer,
  type PlannedFail,
  type ProviderTemplate,
} from "./template.ts";
import { tokenize } from "./tokenize.ts";

/**
 * Ollama as `POST /api/chat` answers a stream (what it does unless the request says
 * `"stream": false`): newline-delimited JSON, one chat response per line carrying the next piece
 * of the message (text one token each, each tool call whole, in a line whose content is empty),
 * and a last line with `"done": true`, the done reason, the token counts and the durations.
 */

/** When the nth line was written: `created_at` as Ollama writes it, in UTC with nanoseconds. */
const createdAt = (index: number): string => {
  const ms = Date.UTC(2025, 10, 30, 10, 0, 0) + 412 + index * 23;
  const nanos = String((ms % 1000) * 1_000_000 + ((index * 7919 + 104729) % 1_000_000)).padStart(9, "0");
  return `${new Date(ms - (ms % 1000)).toISOString().slice(0, 19)}.${nanos}Z`;
};

const message = (content: string, calls?: ReadonlyArray<unknown>) => ({
  role: "assistant",
  content,
  ...(calls === undefined ? {} : { tool_calls: calls }),
});

const toolCall = (call: PlannedAnswer["calls"][number]) => ({ function: { name: call.name, arguments: call.arguments } });

/** The done line's fields: why it stopped, and its counts and durations in nanoseconds. */
const doneFields = (answer: PlannedAnswer) => {
  const load = 38_145_291;
  const promptEval = answer.usage.input * 1_482_917;
  const evaluation = answer.usage.output * 21_734_112;
  return {
    done: true,
    done_reason: "stop",
    total_duration: load + promptEval + evaluation + 5_812_473,
    load_duration: load,
    prompt_eval_count: answer.usage.input,
    prompt_eval_duration: promptEval,
    eval_count: answer.usage.output,
    eval_duration: evaluation,
  };
};

const stream = (answer: PlannedAnswer): ReadonlyArray<Frame> => {
  const pieces = [
    ...tokenize(answer.text ?? "").map((text) => message(text)),
    ...answer.calls.map((call) => message("", [toolCall(call)])),
  ];
  return [
    ...pieces.map((piece, index) => ndjsonFrame({ model: answer.model, created_at: createdAt(index), message: piece, done: false }, true)),
    ndjsonFrame({ model: answer.model, created_at: createdAt(pieces.length), message: message(""), ...doneFields(answer) }),
  ];
};

const response = (answer: PlannedAnswer): HttpAnswer => ({
  status: 200,
  headers: {},
  body: {
    model: answer.model,
    created_at: createdAt(0),
    message: message(answer.text ?? "", answer.calls.length === 0 ? undefined : answer.calls.map(toolCall)),
    ...doneFields(answer),
  },
});

const errorOf = (status: number, model: string): string => {
  switch (status) {
    case 400:
      return "invalid request";
    case 401:
      return "unauthorized";
    case 404:
      return `model "${model}" not found, try pulling it first`;
    case 429:
      return "too many requests";
    case 503:
      return "server busy, please try again.  maximum pending requests exceeded";
    default:
      return status >= 500 ? "llama runner process has terminated: exit status 2" : "invalid request";
  }
};

/** An error status with Ollama's error body, `{"error": "<message>"}`. */
const fail = (planned: PlannedFail): HttpAnswer => ({
  status: planned.status,
  headers: planned.retryAfter === undefined ? {} : { "retry-after": String(planned.retryAfter) },
  body: { error: planned.message ?? errorOf(planned.status, planned.model) },
});

export const ollamaTemplate: ProviderTemplate = {
  defaultModel: () => "llama3.2",
  request: ({ model, stream }) => ({
    path: "/api/chat",
    // Ollama streams unless told not to: the ollama SDK sends "stream": true, other clients leave it out.
    body: { ...modelField(model), ...(stream === undefined ? {} : { stream: stream ? { $anyOf: [true, { $absent: true }] } : false }) },
  }),
  answerModel: (model) => model,
  toolId: undefined,
  takesToolIds: false,
  thinking: false,
  userTurn: (text) => endsWith("messages", { role: "user", content: text }),
  toolResultTurn: (calls) => {
    const last = calls[calls.length - 1];
    return endsWith("messages", { role: "tool", ...(last?.result === undefined ? {} : { content: { $contains: last.result } }) });
  },
  streamHeaders: undefined,
  stream,
  response,
  fail,
};
