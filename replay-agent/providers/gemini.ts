import { TranscriptError } from "../errors.ts";
import { exchangesOf, type Exchange } from "../transcript/exchanges.ts";
import type { SseFrame } from "../transcript/schema.ts";
import type { Transcript } from "../transcript/transcript.ts";
import { endsWith, httpFraming, sseOnly, stillOpen, violation, type FrameVerdict } from "./http-framing.ts";
import type { FramingCheck, HttpProviderFormat } from "./provider-format.ts";

/**
 * The gemini wire format, as `@google/genai` calls it. `POST /<version>/models/<model>:generateContent`
 * answers one GenerateContentResponse; `…:streamGenerateContent?alt=sse` streams unnamed
 * `data: <GenerateContentResponse JSON>` events and simply ends, without a terminator, its last
 * frame carrying the candidate's `finishReason`. The SDK parses every event whose first line is
 * `data:` as JSON, skips any other event, and raises a frame whose `error.code` is an HTTP error
 * status as its `ApiError`. A `fail` is an HTTP error status, which the SDK raises as `ApiError`
 * with that status whatever the body; Google's body is `{"error":{"code","message","status"}}`.
 */

type Json = { readonly [key: string]: unknown };

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const lastFrame =
  '{"type":"emit_inbound","sse":{"data":{"candidates":[{"content":{"parts":[{"text":"…"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{…},"modelVersion":"gemini-2.5-flash","responseId":"…"}}}';

const responseExample =
  '{"candidates":[{"content":{"parts":[{"text":"…"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":6,"candidatesTokenCount":5,"totalTokenCount":11},"modelVersion":"gemini-2.5-flash","responseId":"…"}';

const errorExample = '{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}';

const camelCase = (key: string): string => key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** The first snake_case key of `object`, which the SDK never reads: the API's JSON is camelCase. */
const snakeKey = (object: Json, where: string): { readonly problem: string; readonly fix: string } | undefined => {
  const key = Object.keys(object).find((name) => name.includes("_"));
  return key === undefined
    ? undefined
    : {
        problem: `${where}"${key}" is snake_case, but the Gemini API writes its JSON in camelCase and the SDK reads only that, so it ignores the key`,
        fix: `Write it "${camelCase(key)}", as the API sends it`,
      };
};

/** Why `data` is not a GenerateContentResponse the SDK reads, if it is not: what it lacks, or a key it would ignore. */
const responseProblem = (data: Json): { readonly problem: string; readonly fix: string } | undefined => {
  const candidates = data["candidates"];
  if (candidates === undefined && data["promptFeedback"] === undefined && data["usageMetadata"] === undefined) {
    const looksLike = "choices" in data ? " (it looks like an OpenAI chunk)" : "";
    return {
      problem: `a GenerateContentResponse needs "candidates", "promptFeedback" or "usageMetadata", and this one has none${looksLike}: the SDK reads it as an empty answer`,
      fix: `Write the response as the API sent it, like ${responseExample}`,
    };
  }
  const top = snakeKey(data, "");
  if (top !== undefined) return top;
  if (candidates === undefined) return undefined;
  if (!Array.isArray(candidates)) {
    return { problem: '"candidates" is not a list', fix: `Write the candidates as a list, like ${responseExample}` };
  }
  for (const [index, candidate] of candidates.entries()) {
    const at = `candidates[${index}]`;
    if (!isRecord(candidate))
      return { problem: `${at} is not an object`, fix: `Write each candidate as an object, like ${responseExample}` };
    const own = snakeKey(candidate, `${at}: `);
    if (own !== undefined) return own;
    const content = candidate["content"];
    if (content === undefined) continue;
    const parts = isRecord(content) ? content["parts"] : undefined;
    if (!isRecord(content) || (parts !== undefined && !Array.isArray(parts))) {
      return {
        problem: `${at}.content is not {"parts":[…],"role":"model"}`,
        fix: 'Write the content as the API sends it: {"parts":[{"text":"…"}],"role":"model"}',
      };
    }
    for (const [number, part] of (Array.isArray(parts) ? parts : []).entries()) {
      const partAt = `${at}.content.parts[${number}]`;
      if (!isRecord(part)) return { problem: `${partAt} is not an object`, fix: 'Write each part as an object, like {"text":"…"}' };
      const partKey = snakeKey(part, `${partAt}: `);
      if (partKey !== undefined) return partKey;
      const call = part["functionCall"];
      if (call !== undefined && !(isRecord(call) && typeof call["name"] === "string")) {
        return {
          problem: `${partAt}.functionCall has no string "name", so the app cannot tell which function it calls`,
          fix: 'Write the call as the API sends it: {"functionCall":{"name":"read_file","args":{…}}}',
        };
      }
    }
  }
  return undefined;
};

/** Whether `data` is an error frame: an `error` object in place of a response. */
const isErrorFrame = (data: Json): boolean => isRecord(data["error"]);

/** Checks one stream's frames: unnamed data events, each a GenerateContentResponse or an error frame, which ends it. */
const checkStream =
  () =>
  (frame: SseFrame): FrameVerdict => {
    if (frame.data === "[DONE]") {
      return violation(
        "[DONE] in a gemini stream: the SDK parses every data: line as a GenerateContentResponse, and [DONE] is not JSON, so the app's stream fails with a SyntaxError",
        `Remove it: a Gemini stream ends after its last response, the one whose candidate has a "finishReason", like ${lastFrame}`,
      );
    }
    if (frame.event !== undefined) {
      return violation(
        `an event named "${frame.event}": the Gemini SDK reads only events that start with data:, so it skips this one whole`,
        'Remove "event": Gemini streams unnamed data: events',
      );
    }
    const data = frame.data;
    if (isErrorFrame(data)) {
      const code = isRecord(data["error"]) ? data["error"]["code"] : undefined;
      return typeof code === "number" && Number.isInteger(code) && code >= 400 && code <= 599
        ? endsWith("the error frame")
        : violation(
            'an error frame whose "error.code" is not an HTTP error status from 400 to 599: the SDK raises its ApiError only for one, and reads this frame as an empty answer',
            `Write the error as Google sends it, like ${errorExample}`,
          );
    }
    const problem = responseProblem(data);
    return problem === undefined ? stillOpen : violation(problem.problem, problem.fix);
  };

/** Whether a response's first candidate says why it finished, or its prompt was blocked: what a finished answer carries. */
const finishes = (data: Json): boolean => {
  const candidates = data["candidates"];
  const first: unknown = Array.isArray(candidates) ? candidates[0] : undefined;
  const feedback = data["promptFeedback"];
  return (isRecord(first) && first["finishReason"] !== undefined) || (isRecord(feedback) && feedback["blockReason"] !== undefined);
};

/**
 * What an exchange breaks that the per-frame rules cannot see: a stream that ends without a
 * finishReason (the SDK's chats leave such a turn out of the history they send next), and a
 * whole generateContent answer that is not a GenerateContentResponse.
 */
const checkAnswer = (file: string, { request, answer }: Exchange): TranscriptError | undefined => {
  const error = (line: number, problem: string, fix: string) => new TranscriptError({ file, line, code: "framing", problem, fix });
  const frames = answer.flatMap((entry) =>
    entry.type === "emit_inbound" && entry.sse !== undefined ? [{ line: entry.line, sse: entry.sse }] : [],
  );
  const last = frames.at(-1);
  const cutShort = answer.some((entry) => entry.type === "disconnect");
  const finished = frames.some(({ sse }) => sse.data !== "[DONE]" && (finishes(sse.data) || isErrorFrame(sse.data)));
  if (last !== undefined && !cutShort && !finished) {
    return error(
      last.line,
      `the stream answering line ${request.line} ends without a "finishReason": the API's last frame carries one, and without it the SDK's chats.sendMessageStream leaves this turn, question and answer, out of the history the app's next request sends`,
      `Give the last frame's candidate the "finishReason" the API sent, like ${lastFrame}, or add {"type":"disconnect"} to drop the connection mid-stream`,
    );
  }
  const path = request.request?.path;
  if (typeof path !== "string" || !path.includes(":generateContent")) return undefined;
  for (const entry of answer) {
    if (entry.type !== "emit_inbound" || entry.response === undefined || entry.response.status >= 300) continue;
    const body = entry.response.body;
    const problem = isRecord(body)
      ? responseProblem(body)
      : {
          problem: "the answer to generateContent is not a JSON object",
          fix: `Write the response as the API sent it, like ${responseExample}`,
        };
    if (problem !== undefined) return error(entry.line, problem.problem, `${problem.fix} (an error goes in a fail line)`);
  }
  return undefined;
};

const streamFraming = httpFraming({ kinds: ["sse"], ending: null, endingExample: lastFrame, open: sseOnly(checkStream) });

const checkFraming: FramingCheck = (transcript: Transcript) => {
  const problem = streamFraming(transcript);
  if (problem !== undefined) return problem;
  for (const exchange of exchangesOf(transcript)) {
    const answerProblem = checkAnswer(transcript.file, exchange);
    if (answerProblem !== undefined) return answerProblem;
  }
  return undefined;
};

export const gemini: HttpProviderFormat = {
  hosts: ["generativelanguage.googleapis.com"],
  checkFraming,
  credentials: { env: "GEMINI_API_KEY", headers: (key) => ({ "x-goog-api-key": key }) },
};
