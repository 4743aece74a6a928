import { randomUUID } from "node:crypto";
import * as Predicate from "effect/Predicate";
import { TranscriptError, type ReplayMismatchError } from "../errors.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { StdioProviderFormat } from "./provider-format.ts";

/**
 * The claude-code wire format: the Claude Code CLI as the Agent SDK (`@anthropic-ai/claude-agent-sdk`)
 * spawns it (`--input-format stream-json --output-format stream-json`), one JSON object a line, each
 * with a string `type`. The SDK writes `user` messages, `control_request`s (initialize, interrupt,
 * set_permission_mode, …, each with a request_id it picks at random) and `control_response`s to the
 * CLI's requests; the CLI writes `system`, `assistant`, `user`, `stream_event` and `result` messages,
 * the `control_response` to each SDK request, and `control_request`s (`can_use_tool`) the SDK answers
 * through the app's `canUseTool`. The control_response in the answer to an SDK request is written
 * with that request's request_id, whatever id the transcript recorded.
 */

type Json = { readonly [key: string]: unknown };

const field = (value: unknown, key: string): unknown => (Predicate.isObject(value) ? value[key] : undefined);
const isControl = (value: unknown, type: "control_request" | "control_response"): value is Json =>
  Predicate.isObject(value) && value["type"] === type;

/** What is wrong with a message the agent writes, by the fields the SDK reads from it. */
const messageProblem = (message: unknown): string | undefined => {
  if (!Predicate.isObject(message) || typeof message["type"] !== "string") {
    return `expected a JSON object with a string "type", got ${JSON.stringify(message)?.slice(0, 80) ?? "nothing"}`;
  }
  switch (message["type"]) {
    case "control_request":
      return typeof message["request_id"] === "string" && typeof field(message["request"], "subtype") === "string"
        ? undefined
        : 'a control_request needs a string "request_id" and a "request" with a string "subtype"';
    case "control_response": {
      const response = message["response"];
      const subtype = field(response, "subtype");
      if (typeof field(response, "request_id") !== "string" || (subtype !== "success" && subtype !== "error")) {
        return 'a control_response needs a "response" with a string "request_id" and "subtype" "success" or "error"';
      }
      return subtype === "error" && typeof field(response, "error") !== "string"
        ? 'an error control_response needs a string "error"'
        : undefined;
    }
    case "result": {
      // The SDK reads an error result's text from `errors` unless its subtype is "success".
      const errors = message["errors"];
      const listed = Array.isArray(errors) && errors.every((error) => typeof error === "string");
      return message["is_error"] === true && message["subtype"] !== "success" && !listed
        ? `an error result of subtype ${JSON.stringify(message["subtype"])} needs "errors", an array of strings`
        : undefined;
    }
    default:
      return undefined;
  }
};

/** The app's control_request whose answer is being read, and whether a control_response (or an exit) answered it yet. */
interface OpenRequest {
  readonly line: number;
  readonly subtype: string;
  answered: boolean;
}

const checkFraming = (transcript: Transcript): TranscriptError | undefined => {
  const error = (line: number, problem: string, fix: string) =>
    new TranscriptError({ file: transcript.file, line, code: "framing", problem, fix });
  const unanswered: Array<{ readonly id: string; readonly subtype: string; readonly line: number }> = [];
  let request: OpenRequest | undefined;
  let ended: { readonly what: string; readonly line: number } | undefined;
  const unansweredRequest = (): TranscriptError | undefined =>
    request === undefined || request.answered
      ? undefined
      : error(
          request.line,
          `the app's ${request.subtype} control_request is never answered: no control_response follows it before the next expect_outbound, and the SDK waits for one`,
          'Add the CLI\'s answer below it, like {"type":"emit_inbound","message":{"type":"control_response","response":{"subtype":"success","request_id":"3f2a9c1e7b4d","response":{}}}}',
        );
  for (const entry of transcript.entries) {
    if (ended !== undefined) {
      return error(
        entry.line,
        `${entry.type} after the ${ended.what} at line ${ended.line}: the CLI has stopped talking`,
        "Remove it, or move the exit to the end",
      );
    }
    switch (entry.type) {
      case "expect_outbound": {
        const open = unansweredRequest();
        if (open !== undefined) return open;
        const pattern = entry.message;
        if (!Predicate.isObject(pattern)) {
          return error(
            entry.line,
            "expect_outbound.message must be a pattern object for a message the SDK writes",
            'Write it like {"type":"user","message":{"role":"user","content":[{"type":"text","text":"Hi"}]}}',
          );
        }
        request = undefined;
        if (pattern["type"] === "control_request") {
          if (typeof pattern["request_id"] === "string") {
            return error(
              entry.line,
              `the SDK picks a new random request_id for each control_request, so ${JSON.stringify(pattern["request_id"])} will never match`,
              'Match it with {"request_id":{"$any":true}}; the control_response below is written with the id the SDK sent',
            );
          }
          const subtype = field(pattern["request"], "subtype");
          request = { line: entry.line, subtype: typeof subtype === "string" ? subtype : "", answered: false };
        }
        if (pattern["type"] === "control_response") {
          const id = field(pattern["response"], "request_id");
          const answered = typeof id === "string" ? unanswered.findIndex((asked) => asked.id === id) : Predicate.isObject(id) ? 0 : -1;
          if (answered !== -1) unanswered.splice(answered, 1);
        }
        break;
      }
      case "emit_inbound": {
        const message = entry.message;
        const problem = messageProblem(message);
        if (problem !== undefined) {
          return error(
            entry.line,
            `emit_inbound.message is not a message the SDK reads: ${problem}`,
            'Write what the CLI wrote, like {"type":"assistant","message":{…},"parent_tool_use_id":null,"session_id":"…","uuid":"…"}',
          );
        }
        if (isControl(message, "control_request")) {
          unanswered.push({ id: String(message["request_id"]), subtype: String(field(message["request"], "subtype")), line: entry.line });
        }
        if (isControl(message, "control_response")) {
          if (request === undefined || request.answered) {
            return error(
              entry.line,
              request === undefined
                ? "a control_response answers a control_request of the app, but this one is not in the answer to one"
                : `the app's ${request.subtype} control_request (line ${request.line}) is already answered above`,
              "Put each control_response in the answer of the expect_outbound that matches the control_request it answers, once",
            );
          }
          request.answered = true;
        }
        break;
      }
      case "exit":
        ended = { what: `exit ${entry.code}`, line: entry.line };
        if (request !== undefined) request.answered = true;
        break;
      default:
        break;
    }
  }
  const open = unansweredRequest();
  if (open !== undefined) return open;
  const [asked] = unanswered;
  if (asked === undefined) return undefined;
  return error(
    asked.line,
    `the CLI's ${asked.subtype} control_request (request_id ${JSON.stringify(asked.id)}) is never answered: no expect_outbound below it has its request_id`,
    `Add the answer the SDK sends, like {"type":"expect_outbound","message":{"type":"control_response","response":{"subtype":"success","request_id":${JSON.stringify(asked.id)}}}}`,
  );
};

/** The result the CLI writes when a turn fails, with zeroed usage, carrying `text` as its error. */
const errorResult = (sessionId: string, text: string) => ({
  type: "result",
  subtype: "error_during_execution",
  duration_ms: 0,
  duration_api_ms: 0,
  is_error: true,
  num_turns: 0,
  stop_reason: null,
  session_id: sessionId,
  total_cost_usd: 0,
  usage: {
    input_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 0,
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: "standard",
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
  },
  modelUsage: {},
  permission_denials: [],
  errors: [text],
  uuid: randomUUID(),
});

/**
 * An unexpected control_request gets an error control_response with its request_id, which rejects
 * the SDK call that sent it; an unexpected user message or control_response ends the turn with an
 * error result, which the app reads and the SDK raises as "Claude Code returned an error result".
 */
const answerMismatch = (message: unknown, mismatch: ReplayMismatchError): unknown => {
  if (!Predicate.isObject(message)) return undefined;
  const where =
    mismatch.expectedLine === null
      ? "the transcript expects no more messages"
      : `the transcript expects line ${mismatch.expectedLine} here`;
  const diff = mismatch.diff.split("\n").join("; ");
  const type = message["type"];
  if (type === "control_request" && typeof message["request_id"] === "string") {
    const subtype = field(message["request"], "subtype");
    return {
      type: "control_response",
      response: {
        subtype: "error",
        request_id: message["request_id"],
        error: `replay-agent did not expect this ${typeof subtype === "string" ? `${subtype} ` : ""}control_request (${where}): ${diff}`,
      },
    };
  }
  if (type !== "user" && type !== "control_response") return undefined;
  const sessionId = typeof message["session_id"] === "string" ? message["session_id"] : "";
  return errorResult(sessionId, `replay-agent did not expect this ${type} message (${where}): ${diff}`);
};

/** The control_response in the answer to the app's control_request carries that request's request_id. */
const echo = (message: unknown, frame: unknown): unknown => {
  if (!isControl(message, "control_request") || !isControl(frame, "control_response") || !Predicate.isObject(frame["response"]))
    return frame;
  return { ...frame, response: { ...frame["response"], request_id: message["request_id"] } };
};

export const claudeCode: StdioProviderFormat = { checkFraming, answerMismatch, echo };
