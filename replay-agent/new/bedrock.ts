import { ids } from "./ids.ts";
import {
  endsWith,
  escapeRegex,
  eventStreamFrame,
  type Frame,
  type HttpAnswer,
  type PlannedAnswer,
  type PlannedFail,
  type ProviderTemplate,
} from "./template.ts";
import { group, spacedJson, tokenize } from "./tokenize.ts";

/**
 * Bedrock's Converse API as `POST /model/<modelId>/converse-stream` answers: AWS event-stream
 * messages, each an event named by its `:event-type` header with a JSON payload padded by a `p`
 * field: `messageStart`, the text block's deltas one token each and its stop (a text block has
 * no start event), each tool use started with its id and name, its input JSON in fragments and
 * stopped, `messageStop` with the stop reason, and `metadata` with the usage and latency.
 */

/** The path a request takes: the model id in it (URL-encoded, as the AWS SDK sends it), `/converse-stream` to stream, `/converse` for a whole answer. */
const path = (model: string | undefined, stream: boolean | undefined): unknown => {
  if (model !== undefined && stream !== undefined) return `/model/${encodeURIComponent(model)}/${stream ? "converse-stream" : "converse"}`;
  const method = stream === undefined ? "converse(?:-stream)?" : stream ? "converse-stream" : "converse";
  return { $regex: `^/model/${model === undefined ? "[^/]+" : escapeRegex(encodeURIComponent(model))}/${method}$` };
};

const stopReason = (answer: PlannedAnswer) => (answer.calls.length > 0 ? "tool_use" : "end_turn");

const usageOf = (answer: PlannedAnswer) => ({
  inputTokens: answer.usage.input,
  outputTokens: answer.usage.output,
  totalTokens: answer.usage.input + answer.usage.output,
});

/** A made-up latency: a first-token wait and a pace per output token. */
const metricsOf = (answer: PlannedAnswer) => ({ latencyMs: 412 + answer.usage.output * 23 });

const stream = (answer: PlannedAnswer): ReadonlyArray<Frame> => {
  const frames: Array<Frame> = [];
  const push = (type: string, fields: Record<string, unknown>, delta = false) =>
    frames.push(
      eventStreamFrame(
        {
          headers: { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
          payload: { ...fields, p: ids.bedrockPadding(`${answer.seed}|${frames.length}`) },
        },
        delta,
      ),
    );
  push("messageStart", { role: "assistant" });
  let index = 0;
  if (answer.text !== undefined) {
    for (const text of tokenize(answer.text)) push("contentBlockDelta", { contentBlockIndex: index, delta: { text } }, true);
    push("contentBlockStop", { contentBlockIndex: index });
    index++;
  }
  for (const call of answer.calls) {
    push("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId: call.id, name: call.name } } });
    for (const input of group(tokenize(spacedJson(call.arguments)), 5)) {
      push("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input } } }, true);
    }
    push("contentBlockStop", { contentBlockIndex: index });
    index++;
  }
  push("messageStop", { stopReason: stopReason(answer) });
  push("metadata", { usage: usageOf(answer), metrics: metricsOf(answer) });
  return frames;
};

const headers = (seed: string): Readonly<Record<string, string>> => ({ "x-amzn-requestid": ids.awsRequest(seed) });

const response = (answer: PlannedAnswer): HttpAnswer => ({
  status: 200,
  headers: headers(answer.seed),
  body: {
    metrics: metricsOf(answer),
    output: {
      message: {
        content: [
          ...(answer.text === undefined ? [] : [{ text: answer.text }]),
          ...answer.calls.map((call) => ({ toolUse: { toolUseId: call.id, name: call.name, input: call.arguments } })),
        ],
        role: "assistant",
      },
    },
    stopReason: stopReason(answer),
    usage: usageOf(answer),
  },
});

/** The exception Bedrock names for an HTTP error status, and its usual message. */
const errorOf = (status: number): { readonly type: string; readonly message: string } => {
  switch (status) {
    case 400:
      return { type: "ValidationException", message: "Malformed input request, please reformat your input and try again." };
    case 403:
      return { type: "AccessDeniedException", message: "You don't have access to the model with the specified model ID." };
    case 404:
      return { type: "ResourceNotFoundException", message: "Could not resolve the foundation model from the provided model identifier." };
    case 408:
      return { type: "ModelTimeoutException", message: "Model has timed out in processing the request. Try your request again." };
    case 424:
      return { type: "ModelErrorException", message: "The model returned an error. Try your request again." };
    case 429:
      return { type: "ThrottlingException", message: "Too many requests, please wait before trying again." };
    case 503:
      return { type: "ServiceUnavailableException", message: "Bedrock is unable to process your request." };
    default:
      return status >= 500
        ? { type: "InternalServerException", message: "The server encountered an internal error while processing the request." }
        : { type: "ValidationException", message: "Malformed input request, please reformat your input and try again." };
  }
};

/** An error status as Bedrock answers it: the exception named in `x-amzn-errortype`, `{"message"}` as the body. */
const fail = (planned: PlannedFail): HttpAnswer => {
  const error = errorOf(planned.status);
  return {
    status: planned.status,
    headers: {
      ...(planned.retryAfter === undefined ? {} : { "retry-after": String(planned.retryAfter) }),
      "x-amzn-errortype": `${error.type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      "x-amzn-requestid": ids.awsRequest(planned.seed),
    },
    body: { message: planned.message ?? error.message },
  };
};

export const bedrockTemplate: ProviderTemplate = {
  defaultModel: () => "anthropic.claude-3-5-haiku-20241022-v1:0",
  request: ({ model, stream }) => ({ path: path(model, stream), body: {} }),
  answerModel: (model) => model,
  toolId: ids.bedrockToolUse,
  takesToolIds: true,
  thinking: false,
  userTurn: (text) => endsWith("messages", { role: "user", content: { $some: { text } } }),
  toolResultTurn: (calls) =>
    endsWith("messages", {
      role: "user",
      content: calls.map((call) => ({
        toolResult: {
          toolUseId: call.id,
          ...(call.result === undefined ? {} : { content: { $some: { text: { $contains: call.result } } } }),
        },
      })),
    }),
  streamHeaders: headers,
  stream,
  response,
  fail,
};
