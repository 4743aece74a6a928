import * as Predicate from "effect/Predicate";
import { TranscriptError, type ReplayMismatchError } from "../errors.ts";
import { matchPattern } from "../runtime/pattern.ts";
import { requestExcerpt } from "../runtime/request-excerpt.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { StdioProviderFormat } from "./provider-format.ts";

/**
 * The jsonrpc-stdio wire format: newline-delimited JSON-RPC 2.0 on the agent process's stdin
 * and stdout, as the Agent Client Protocol and similar agent CLIs speak it. The app's messages
 * are expect_outbound patterns; the agent's notifications, responses and requests are
 * emit_inbound messages. A request the agent sends must be answered by the app, so an
 * expect_outbound with its id follows it. `exit` ends the process; nothing can follow it.
 */

type JsonRpcId = string | number;

const isId = (value: unknown): value is JsonRpcId => typeof value === "string" || typeof value === "number";

/** What a JSON-RPC message is, or why it is not one. */
const classify = (
  message: unknown,
): { kind: "request"; id: JsonRpcId; method: string } | { kind: "notification" | "response" } | { problem: string } => {
  if (!Predicate.isObject(message)) return { problem: `expected a JSON-RPC message object, got ${JSON.stringify(message)}` };
  if (message["jsonrpc"] !== "2.0") return { problem: `"jsonrpc" must be "2.0", got ${JSON.stringify(message["jsonrpc"]) ?? "nothing"}` };
  const method = message["method"];
  const id = message["id"];
  if (typeof method === "string") {
    if (isId(id)) return { kind: "request", id, method };
    return id === undefined
      ? { kind: "notification" }
      : { problem: `the id of a request must be a string or a number, got ${JSON.stringify(id)}` };
  }
  if (!isId(id) && id !== null) return { problem: 'a message needs a "method" (request, notification) or an "id" (response)' };
  const answers = ["result", "error"].filter((key) => Object.hasOwn(message, key));
  return answers.length === 1 ? { kind: "response" } : { problem: 'a response needs exactly one of "result" or "error"' };
};

const checkFraming = (transcript: Transcript): TranscriptError | undefined => {
  const error = (line: number, problem: string, fix: string) =>
    new TranscriptError({ file: transcript.file, line, code: "framing", problem, fix });
  const unanswered: Array<{ readonly id: JsonRpcId; readonly method: string; readonly line: number }> = [];
  let ended: { readonly what: string; readonly line: number } | undefined;
  for (const entry of transcript.entries) {
    if (ended !== undefined) {
      return error(
        entry.line,
        `${entry.type} after the ${ended.what} at line ${ended.line}: the agent has stopped talking`,
        "Remove it, or move the exit to the end",
      );
    }
    switch (entry.type) {
      case "expect_outbound": {
        const pattern = entry.message;
        if (!Predicate.isObject(pattern)) {
          return error(
            entry.line,
            "expect_outbound.message must be a pattern object for a JSON-RPC message",
            'Write it like {"jsonrpc":"2.0","id":1,"method":"session/new"}',
          );
        }
        const id = pattern["id"];
        const answered = isId(id) ? unanswered.findIndex((request) => request.id === id) : Predicate.isObject(id) ? 0 : -1;
        if (answered !== -1) unanswered.splice(answered, 1);
        break;
      }
      case "emit_inbound": {
        const kind = classify(entry.message);
        if ("problem" in kind) {
          return error(
            entry.line,
            `emit_inbound.message is not a JSON-RPC 2.0 message: ${kind.problem}`,
            'Write what the agent sent, like {"jsonrpc":"2.0","method":"session/update","params":{…}}',
          );
        }
        if (kind.kind === "request") unanswered.push({ id: kind.id, method: kind.method, line: entry.line });
        break;
      }
      case "exit":
        ended = { what: `exit ${entry.code}`, line: entry.line };
        break;
      default:
        break;
    }
  }
  const [request] = unanswered;
  if (request === undefined) return undefined;
  return error(
    request.line,
    `the agent's ${request.method} request (id ${JSON.stringify(request.id)}) is never answered: no expect_outbound below it has its id`,
    `Add the answer the app sends, like {"type":"expect_outbound","message":{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":{"$any":true}}}`,
  );
};

/** A request the transcript did not expect gets a JSON-RPC error naming its method: -32601 when another method was expected, -32602 when only its params differ. */
const answerMismatch = (message: unknown, mismatch: ReplayMismatchError): unknown => {
  const data = {
    type: "replay_mismatch",
    line: mismatch.expectedLine,
    expected: mismatch.expected,
    diff: mismatch.diff,
    excerpt: requestExcerpt(message),
  };
  if (typeof message === "string") {
    return {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: replay-agent could not read this line as JSON", data },
    };
  }
  const kind = classify(message);
  if (!("kind" in kind) || kind.kind !== "request") return undefined;
  const expectedMethod = Predicate.isObject(mismatch.expected) ? mismatch.expected["method"] : undefined;
  const sameMethod = expectedMethod !== undefined && matchPattern(expectedMethod, kind.method).length === 0;
  const where =
    mismatch.expectedLine === null
      ? "the transcript expects no more messages"
      : `the transcript expects line ${mismatch.expectedLine} here`;
  return {
    jsonrpc: "2.0",
    id: kind.id,
    error: sameMethod
      ? { code: -32602, message: `Invalid params: replay-agent did not expect these params for "${kind.method}" (${where})`, data }
      : { code: -32601, message: `Method not found: replay-agent did not expect "${kind.method}" (${where})`, data },
  };
};

export const jsonRpcStdio: StdioProviderFormat = { checkFraming, answerMismatch };
