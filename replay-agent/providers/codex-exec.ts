import * as Predicate from "effect/Predicate";
import { TranscriptError, type ReplayMismatchError } from "../errors.ts";
import { requestExcerpt } from "../runtime/request-excerpt.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { StdioProviderFormat } from "./provider-format.ts";

/**
 * `codex exec --experimental-json` as `@openai/codex-sdk` runs it: the app writes the prompt to
 * the process's stdin as plain text and closes it; codex prints one JSON event a line
 * (`thread.started`, `turn.started`, `item.started`, `item.updated`, `item.completed`, `error`)
 * and ends the turn with `turn.completed` or `turn.failed`, then exits: 0 after a completed
 * turn, 1 after a failed one. One process runs one turn, so a transcript holds one prompt.
 */

/** The events that end a turn: nothing but an exit may follow them. */
const turnEnds = new Set(["turn.completed", "turn.failed"]);

/** The pattern operators that match a string as a whole: the prompt is matched as text, never as JSON. */
const textOperators = new Set(["$contains", "$regex", "$any"]);

const isPromptPattern = (pattern: unknown): boolean =>
  typeof pattern === "string" ||
  (Predicate.isObject(pattern) && Object.keys(pattern).length === 1 && textOperators.has(Object.keys(pattern)[0] ?? ""));

const hasString = (value: { readonly [key: string]: unknown }, key: string): boolean => typeof value[key] === "string";

/** Why `event` is not one codex exec prints (`first` when it is the first of the run), if it is not. */
const eventProblem = (event: unknown, first: boolean): string | undefined => {
  if (!Predicate.isObject(event)) return `expected an event object, got ${JSON.stringify(event)}`;
  const type = event["type"];
  if (typeof type !== "string") return 'an event needs a string "type"';
  if (first && type !== "thread.started") {
    return `the first event must be thread.started (codex exec names its thread before anything else), got "${type}"`;
  }
  switch (type) {
    case "thread.started":
      return hasString(event, "thread_id") ? undefined : 'thread.started needs a string "thread_id"';
    case "item.started":
    case "item.updated":
    case "item.completed": {
      const item = event["item"];
      return Predicate.isObject(item) && hasString(item, "id") && hasString(item, "type")
        ? undefined
        : `${type} needs an "item" object with a string "id" and "type"`;
    }
    case "turn.completed":
      return Predicate.isObject(event["usage"]) ? undefined : 'turn.completed needs a "usage" object (the SDK reads its token counts)';
    case "turn.failed": {
      const error = event["error"];
      return Predicate.isObject(error) && hasString(error, "message")
        ? undefined
        : 'turn.failed needs an "error" object with a string "message"';
    }
    case "error":
      return hasString(event, "message") ? undefined : 'error needs a string "message"';
    default:
      return undefined;
  }
};

const checkFraming = (transcript: Transcript): TranscriptError | undefined => {
  const error = (line: number, problem: string, fix: string) =>
    new TranscriptError({ file: transcript.file, line, code: "framing", problem, fix });
  let prompt: number | undefined;
  let events = 0;
  let turnEnd: { readonly type: string; readonly line: number } | undefined;
  let exit: { readonly code: number; readonly line: number } | undefined;
  for (const entry of transcript.entries) {
    if (exit !== undefined) {
      return error(
        entry.line,
        `${entry.type} after the exit ${exit.code} at line ${exit.line}: codex exec has exited`,
        "Remove it, or move the exit to the end",
      );
    }
    switch (entry.type) {
      case "expect_outbound":
        if (prompt !== undefined) {
          return error(
            entry.line,
            `a second prompt (the first is line ${prompt}): codex exec reads one prompt from stdin, runs one turn and exits`,
            "Give the next run (codex exec … resume <thread_id>) a transcript of its own",
          );
        }
        if (!isPromptPattern(entry.message)) {
          return error(
            entry.line,
            "expect_outbound.message must match the prompt the app writes to stdin as text: a string, or a $contains, $regex or $any pattern",
            'Write it like "Fix the failing test" or {"$contains":"failing test"}',
          );
        }
        prompt = entry.line;
        break;
      case "emit_inbound": {
        if (prompt === undefined) {
          return error(
            entry.line,
            "an event before the prompt: codex exec prints nothing before it has read its prompt from stdin",
            'Put the prompt first: {"type":"expect_outbound","message":"<the prompt>"}',
          );
        }
        if (turnEnd !== undefined) {
          return error(
            entry.line,
            `an event after the ${turnEnd.type} at line ${turnEnd.line}: the turn is over`,
            `Remove it; only an exit may follow ${turnEnd.type}`,
          );
        }
        const problem = eventProblem(entry.message, events === 0);
        if (problem !== undefined) {
          return error(
            entry.line,
            `emit_inbound.message is not a codex exec event: ${problem}`,
            'Write the event as codex exec --experimental-json printed it, like {"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"…"}}',
          );
        }
        events++;
        const type = Predicate.isObject(entry.message) ? String(entry.message["type"]) : "";
        if (turnEnds.has(type)) turnEnd = { type, line: entry.line };
        break;
      }
      case "exit":
        if (turnEnd?.type === "turn.failed" && entry.code === 0) {
          return error(
            entry.line,
            `exit 0 after the turn.failed at line ${turnEnd.line}: codex exec exits 1 after a failed turn`,
            'Write {"type":"exit","code":1}',
          );
        }
        exit = { code: entry.code, line: entry.line };
        break;
      default:
        break;
    }
  }
  if (prompt === undefined) {
    return error(
      transcript.meta.line,
      "the transcript has no prompt: codex exec reads one from stdin before it prints anything",
      'Add {"type":"expect_outbound","message":"<the prompt>"} after the meta line',
    );
  }
  if (turnEnd?.type === "turn.failed" && exit === undefined) {
    return error(
      turnEnd.line,
      "turn.failed with no exit after it: codex exec exits 1 after a failed turn",
      'Add {"type":"exit","code":1} after it',
    );
  }
  if (turnEnd === undefined && exit === undefined) {
    return error(
      transcript.entries.at(-1)?.line ?? transcript.meta.line,
      "the run ends without turn.completed or turn.failed, and no exit cuts it short",
      'End the turn with {"type":"emit_inbound","message":{"type":"turn.completed","usage":{…}}}, or end the process with {"type":"exit","code":1}',
    );
  }
  return undefined;
};

/** A prompt the transcript did not expect gets an `error` event naming the difference; the agent then exits 1, which the SDK raises with its stderr. */
const answerMismatch = (message: unknown, mismatch: ReplayMismatchError): unknown => ({
  type: "error",
  message: `replay-agent could not replay the prompt on stdin (${requestExcerpt(message)}): ${mismatch.message}`,
});

export const codexExec: StdioProviderFormat = { checkFraming, answerMismatch, stdin: "prompt" };
