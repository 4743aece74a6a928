import { ids } from "./ids.ts";
import {
  endsWith,
  escapeRegex,
  sseFrame,
  type Frame,
  type HttpAnswer,
  type PlannedAnswer,
  type PlannedFail,
  type ProviderTemplate,
} from "./template.ts";
import { tokenize } from "./tokenize.ts";

/**
 * The Gemini API as `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` answers (the
 * stream `@google/genai` asks for; version 3.3 calls it under `/v1`, Google's REST documentation
 * under `/v1beta`): unnamed SSE events, each a whole `GenerateContentResponse` holding one candidate
 * with the next parts (thought parts marked `thought: true`, text one token each, each function
 * call whole), the usage so far, the model version and the response id. The last event carries
 * `finishReason` and the whole usage; there is no terminator.
 */

/** The path a request takes: the model in it, `:streamGenerateContent?alt=sse` to stream, `:generateContent` for a whole answer. */
const path = (model: string | undefined, stream: boolean | undefined) => {
  const method =
    stream === undefined
      ? "(?:generateContent|streamGenerateContent\\?alt=sse)"
      : stream
        ? "streamGenerateContent\\?alt=sse"
        : "generateContent";
  return { $regex: `^/v1(?:beta)?/models/${model === undefined ? "[^/:]+" : escapeRegex(model)}:${method}$` };
};

type Part = Readonly<Record<string, unknown>>;

const callPart = (answer: PlannedAnswer, index: number): Part => {
  const call = answer.calls[index];
  return {
    functionCall: { ...(call?.id === undefined ? {} : { id: call.id }), name: call?.name, args: call?.arguments },
    // With thinking on, the first function call carries the signature the app sends back with it.
    ...(index === 0 && answer.thinking !== undefined ? { thoughtSignature: ids.thoughtSignature(answer.seed) } : {}),
  };
};

/** The usage so far: the prompt and the thinking; the last event adds the candidates' tokens. */
const usageOf = (answer: PlannedAnswer, done: boolean) => {
  const candidates = answer.usage.output - answer.usage.thinking;
  return {
    promptTokenCount: answer.usage.input,
    ...(done ? { candidatesTokenCount: candidates } : {}),
    totalTokenCount: answer.usage.input + answer.usage.thinking + (done ? candidates : 0),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: answer.usage.input }],
    ...(answer.thinking === undefined ? {} : { thoughtsTokenCount: answer.usage.thinking }),
  };
};

const responseOf = (answer: PlannedAnswer, parts: ReadonlyArray<Part>, done: boolean) => ({
  candidates: [{ content: { parts, role: "model" }, ...(done ? { finishReason: "STOP" } : {}), index: 0 }],
  usageMetadata: usageOf(answer, done),
  modelVersion: answer.model,
  responseId: ids.geminiResponse(answer.seed),
});

const stream = (answer: PlannedAnswer): ReadonlyArray<Frame> => {
  const parts: ReadonlyArray<Part> = [
    ...tokenize(answer.thinking ?? "").map((text) => ({ text, thought: true })),
    ...tokenize(answer.text ?? "").map((text) => ({ text })),
    ...answer.calls.map((_, index) => callPart(answer, index)),
  ];
  return parts.map((part, index) => sseFrame({ data: responseOf(answer, [part], index === parts.length - 1) }, true));
};

const response = (answer: PlannedAnswer): HttpAnswer => ({
  status: 200,
  headers: {},
  body: responseOf(
    answer,
    [
      ...(answer.thinking === undefined ? [] : [{ text: answer.thinking, thought: true }]),
      ...(answer.text === undefined ? [] : [{ text: answer.text }]),
      ...answer.calls.map((_, index) => callPart(answer, index)),
    ],
    true,
  ),
});

/** Google's canonical status of an HTTP error code, and its usual message. */
const errorOf = (status: number, model: string): { readonly status: string; readonly message: string } => {
  switch (status) {
    case 400:
      return { status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." };
    case 401:
      return { status: "UNAUTHENTICATED", message: "Request had invalid authentication credentials." };
    case 403:
      return { status: "PERMISSION_DENIED", message: "The caller does not have permission" };
    case 404:
      return {
        status: "NOT_FOUND",
        message: `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
      };
    case 429:
      return {
        status: "RESOURCE_EXHAUSTED",
        message:
          "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
      };
    case 503:
      return { status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." };
    case 504:
      return { status: "DEADLINE_EXCEEDED", message: "The request timed out. Please try again." };
    default:
      return status >= 500
        ? {
            status: "INTERNAL",
            message:
              "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
          }
        : { status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." };
  }
};

/** An error status with Google's error body (`{"error":{code,message,status}}`); a 429 says in its details when to retry. */
const fail = (planned: PlannedFail): HttpAnswer => {
  const error = errorOf(planned.status, planned.model);
  const retryAfter = planned.retryAfter ?? (planned.status === 429 ? 1 : undefined);
  return {
    status: planned.status,
    headers: {},
    body: {
      error: {
        code: planned.status,
        message: planned.message ?? error.message,
        status: error.status,
        ...(retryAfter === undefined
          ? {}
          : { details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfter}s` }] }),
      },
    },
  };
};

/** A function response the app sends back: its output under `output` (as the SDK documents) or `result` (as Google's examples write). */
const functionResponse = (result: string | undefined) =>
  result === undefined ? {} : { response: { $anyOf: [{ output: { $contains: result } }, { result: { $contains: result } }] } };

export const geminiTemplate: ProviderTemplate = {
  defaultModel: () => "gemini-2.5-flash",
  request: ({ model, stream, thinking }) => ({
    path: path(model, stream),
    body: thinking ? { generationConfig: { thinkingConfig: { includeThoughts: true } } } : {},
  }),
  answerModel: (model) => model,
  toolId: undefined,
  takesToolIds: true,
  thinking: true,
  userTurn: (text) => endsWith("contents", { role: "user", parts: { $some: { text } } }),
  toolResultTurn: (calls) =>
    endsWith("contents", {
      role: "user",
      parts: calls.map((call) => ({
        functionResponse: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, ...functionResponse(call.result) },
      })),
    }),
  streamHeaders: undefined,
  stream,
  response,
  fail,
};
