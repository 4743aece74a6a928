import type { HttpAnswer, PlannedFail } from "./template.ts";
import { ids } from "./ids.ts";

/** What both OpenAI wire formats share: dated model names, the fingerprint, request ids and error bodies. */

const snapshots: Readonly<Record<string, string>> = {
  "gpt-4o-mini": "gpt-4o-mini-2024-07-18",
  "gpt-4o": "gpt-4o-2024-08-06",
  "gpt-4.1": "gpt-4.1-2025-04-14",
  "gpt-4.1-mini": "gpt-4.1-mini-2025-04-14",
  "gpt-4.1-nano": "gpt-4.1-nano-2025-04-14",
  "gpt-5": "gpt-5-2025-08-07",
  "gpt-5-mini": "gpt-5-mini-2025-08-07",
  "gpt-5-nano": "gpt-5-nano-2025-08-07",
};

/** OpenAI answers with the dated snapshot of an alias: gpt-4o-mini is answered as gpt-4o-mini-2024-07-18. */
export const openaiAnswerModel = (model: string): string => snapshots[model] ?? model;

export const systemFingerprint = "fp_0aa8d3e20b";
export const created = 1764500000;

export const openaiHeaders = (seed: string): Readonly<Record<string, string>> => ({ "x-request-id": ids.openaiRequest(seed) });

const errorOf = (status: number, model: string): { readonly message: string; readonly type: string; readonly code: string | null } => {
  switch (status) {
    case 400:
      return { message: "Invalid request: the replayed provider refused it.", type: "invalid_request_error", code: null };
    case 401:
      return {
        message: "Incorrect API key provided: replay. You can find your API key at https://platform.openai.com/account/api-keys.",
        type: "invalid_request_error",
        code: "invalid_api_key",
      };
    case 403:
      return {
        message: "Country, region, or territory not supported",
        type: "request_forbidden",
        code: "unsupported_country_region_territory",
      };
    case 404:
      return {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        type: "invalid_request_error",
        code: "model_not_found",
      };
    case 429:
      return {
        message: `Rate limit reached for ${model} in organization org-replay on requests per min (RPM): Limit 3, Used 3, Requested 1.`,
        type: "requests",
        code: "rate_limit_exceeded",
      };
    case 503:
      return { message: "The server is overloaded or not ready yet.", type: "server_error", code: null };
    default:
      return status >= 500
        ? { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", code: null }
        : { message: "Invalid request: the replayed provider refused it.", type: "invalid_request_error", code: null };
  }
};

/** An error status with OpenAI's error body (`{"error":{message,type,param,code}}`) and its request id; a 429 says when to retry. */
export const openaiFail = (fail: PlannedFail): HttpAnswer => {
  const error = errorOf(fail.status, fail.model);
  const retryAfter = fail.retryAfter ?? (fail.status === 429 ? 1 : undefined);
  return {
    status: fail.status,
    headers: { ...(retryAfter === undefined ? {} : { "retry-after": String(retryAfter) }), "x-request-id": ids.openaiRequest(fail.seed) },
    body: { error: { message: fail.message ?? error.message, type: error.type, param: null, code: error.code } },
  };
};
