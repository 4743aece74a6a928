import * as Predicate from "effect/Predicate";
import { TranscriptError, type ReplayMismatchError } from "../errors.ts";
import { matchPattern } from "../runtime/pattern.ts";
import { requestExcerpt } from "../runtime/request-excerpt.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { StdioProviderFormat } from "./provider-format.ts";

/**
 * The framing shared by the providers that speak newline-delimited JSON-RPC on stdio. A dialect
 * says whether every message carries `"jsonrpc":"2.0"` (JSON-RPC 2.0 as written, the Agent Client
 * Protocol) or leaves the field out (codex app-server), and which messages its errors show.
 */
export interface JsonRpcDialect {
  /** What errors call a message of the protocol: "JSON-RPC 2.0" gives "a JSON-RPC 2.0 message". */
  readonly name: string;
  /** Whether every message carries `"jsonrpc":"2.0"`, or none does. */
  readonly jsonrpc: "required" | "absent";
  /** A request the app sends, as a fix shows it. */
  readonly exampleRequest: string;
  /** A notification the agent sends, as a fix shows it. */
  readonly exampleNotification: string;
}

type JsonRpcId = string | number;

const isId = (value: unknown): value is JsonRpcId => typeof value === "string" || typeof value === "number";

/** The `"jsonrpc"` member every message of `dialect` starts with: `{"jsonrpc":"2.0"}`, or nothing. */
const envelope = (dialect: JsonRpcDialect): { readonly jsonrpc?: "2.0" } => (dialect.jsonrpc === "required" ? { jsonrpc: "2.0" } : {});

/** Why `message`'s `"jsonrpc"` member breaks `dialect`, if it does. */
const versionProblem = (dialect: JsonRpcDialect, message: { readonly [key: string]: unknown }): string | undefined => {
  if (dialect.jsonrpc === "required") {
    return message["jsonrpc"] === "2.0" ? undefined : `"jsonrpc" must be "2.0", got ${JSON.stringify(message["jsonrpc"]) ?? "nothing"}`;
  }
  return Object.hasOwn(message, "jsonrpc")
    ? `it has "jsonrpc":${JSON.stringify(message["jsonrpc"])}, and ${dialect.name} leaves the "jsonrpc" field out of every message`
    : undefined;
};

type Kind =
  { kind: "request"; id: JsonRpcId; method: string } | { kind: "notification" | "response" } | { problem: string; version?: true };

/**
 * What a message of `dialect` is, or why it is not one (`version` when its `"jsonrpc"` member is
 * the reason). With `anyVersion` its `"jsonrpc"` member is not looked at: the replay agent of a
 * dialect without the field answers an app's request whatever that member holds.
 */
const classify = (dialect: JsonRpcDialect, message: unknown, anyVersion = false): Kind => {
  if (!Predicate.isObject(message)) return { problem: `expected a JSON-RPC message object, got ${JSON.stringify(message)}` };
  const version = anyVersion ? undefined : versionProblem(dialect, message);
  if (version !== undefined) return { problem: version, version: true };
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

/**
 * The framing rules of a JSON-RPC dialect on stdio: the app's messages are expect_outbound
 * patterns; the agent's notifications, responses and requests are emit_inbound messages. A
 * request the agent sends must be answered by the app, so an expect_outbound with its id follows
 * it. `exit` ends the process; nothing can follow it.
 */
const checkFramingOf =
  (dialect: JsonRpcDialect) =>
  (transcript: Transcript): TranscriptError | undefined => {
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
              `Write it like ${dialect.exampleRequest}`,
            );
          }
          if (dialect.jsonrpc === "absent" && Object.hasOwn(pattern, "jsonrpc")) {
            return error(
              entry.line,
              `expect_outbound.message has "jsonrpc":${JSON.stringify(pattern["jsonrpc"])}, and ${dialect.name} and its apps leave the "jsonrpc" field out of every message`,
              `Drop "jsonrpc" from the pattern, like ${dialect.exampleRequest}`,
            );
          }
          const id = pattern["id"];
          const answered = isId(id) ? unanswered.findIndex((request) => request.id === id) : Predicate.isObject(id) ? 0 : -1;
          if (answered !== -1) unanswered.splice(answered, 1);
          break;
        }
        case "emit_inbound": {
          const kind = classify(dialect, entry.message);
          if ("problem" in kind) {
            return error(
              entry.line,
              `emit_inbound.message is not a ${dialect.name} message: ${kind.problem}`,
              kind.version === true && dialect.jsonrpc === "absent"
                ? `Drop "jsonrpc" and write the rest as the agent sent it, like ${dialect.exampleNotification}`
                : `Write what the agent sent, like ${dialect.exampleNotification}`,
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
    const answer = { ...envelope(dialect), id: request.id, result: { $any: true } };
    return error(
      request.line,
      `the agent's ${request.method} request (id ${JSON.stringify(request.id)}) is never answered: no expect_outbound below it has its id`,
      `Add the answer the app sends, like {"type":"expect_outbound","message":${JSON.stringify(answer)}}`,
    );
  };

/** A request the transcript did not expect gets a JSON-RPC error naming its method: -32601 when another method was expected, -32602 when only its params differ. */
const answerMismatchOf =
  (dialect: JsonRpcDialect) =>
  (message: unknown, mismatch: ReplayMismatchError): unknown => {
    const data = {
      type: "replay_mismatch",
      line: mismatch.expectedLine,
      expected: mismatch.expected,
      diff: mismatch.diff,
      excerpt: requestExcerpt(message),
    };
    if (typeof message === "string") {
      return {
        ...envelope(dialect),
        id: null,
        error: { code: -32700, message: "Parse error: replay-agent could not read this line as JSON", data },
      };
    }
    const kind = classify(dialect, message, dialect.jsonrpc === "absent");
    if (!("kind" in kind) || kind.kind !== "request") return undefined;
    const expectedMethod = Predicate.isObject(mismatch.expected) ? mismatch.expected["method"] : undefined;
    const sameMethod = expectedMethod !== undefined && matchPattern(expectedMethod, kind.method).length === 0;
    const where =
      mismatch.expectedLine === null
        ? "the transcript expects no more messages"
        : `the transcript expects line ${mismatch.expectedLine} here`;
    return {
      ...envelope(dialect),
      id: kind.id,
      error: sameMethod
        ? { code: -32602, message: `Invalid params: replay-agent did not expect these params for "${kind.method}" (${where})`, data }
        : { code: -32601, message: `Method not found: replay-agent did not expect "${kind.method}" (${where})`, data },
    };
  };

/** The stdio profile of a newline-delimited JSON-RPC dialect: its framing rules and its answer to a message the transcript did not expect. */
export const jsonRpcFormat = (dialect: JsonRpcDialect): StdioProviderFormat => ({
  checkFraming: checkFramingOf(dialect),
  answerMismatch: answerMismatchOf(dialect),
});
