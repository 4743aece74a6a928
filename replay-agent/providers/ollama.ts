import * as Predicate from "effect/Predicate";
import { TranscriptError } from "../errors.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { StreamFrame } from "../wire/stream-frame.ts";
import { endsWith, httpFraming, stillOpen, violation, type FrameVerdict } from "./http-framing.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

/**
 * The ollama wire format, as the official `ollama` JS client calls it: `POST /api/chat` and
 * `POST /api/generate` stream newline-delimited JSON (`application/x-ndjson`), one object a
 * line, each with `"done": false` until the last, which has `"done": true`, its `done_reason`
 * and the counts; the client stops reading there. `/api/pull`, `/api/push` and `/api/create`
 * stream `{"status": …}` lines ending with `"status": "success"`. A line `{"error": "…"}` ends
 * a stream: the client throws it as an Error. With `stream: false`, and for `GET /api/tags`, the
 * answer is one JSON body. An error status's `{"error": "…"}` body is raised as a ResponseError.
 * Ollama takes no key.
 */

const doneLine =
  '{"type":"emit_inbound","ndjson":{"model":"llama3.2","created_at":"…","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop",…}}';

/** Checks one stream's lines: objects, each a generation line with a boolean "done", a progress line with a "status", or an error line. */
const checkStream =
  () =>
  (frame: StreamFrame): FrameVerdict => {
    if (frame.kind !== "ndjson") return violation(`a ${frame.kind} frame in an Ollama stream`, 'Write each line as {"ndjson":{…}}');
    const line = frame.value;
    if (!Predicate.isObject(line)) {
      return violation(
        `an Ollama line that is not a JSON object: ${JSON.stringify(line)}`,
        'Write each line as the JSON object Ollama sent, like {"model":"llama3.2",…,"done":false}',
      );
    }
    if ("error" in line) {
      return typeof line["error"] === "string"
        ? endsWith("the error line")
        : violation(
            `an Ollama error line whose "error" is ${JSON.stringify(line["error"])}, not a string`,
            'Write the error as Ollama does: {"error":"<message>"}; the client throws the message as an Error',
          );
    }
    if ("done" in line) {
      if (typeof line["done"] !== "boolean") {
        return violation(
          `"done" is ${JSON.stringify(line["done"])}, not true or false`,
          'Keep "done": false on every line before the last and "done": true on the last, as Ollama writes them',
        );
      }
      return line["done"] ? endsWith('"done": true') : stillOpen;
    }
    if (typeof line["status"] === "string") return line["status"] === "success" ? endsWith('"status": "success"') : stillOpen;
    return violation(
      'an Ollama line without "done" (or "status" or "error"): the client ends a stream only at "done": true',
      'Keep the line as Ollama sent it, with "done": false, or "done": true on the last line',
    );
  };

const framing = httpFraming({
  kinds: ["ndjson"],
  ending: '"done": true (or "status": "success")',
  endingExample: doneLine,
  open: checkStream,
});

/** The first whole `response` line sent as `application/x-ndjson`: a stream kept as one string, which the client cannot read as lines. */
const streamKeptWhole = (transcript: Transcript): TranscriptError | undefined => {
  for (const entry of transcript.entries) {
    if (entry.type !== "emit_inbound" || entry.response === undefined) continue;
    const headers = entry.response.headers ?? {};
    const type = Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1];
    if (type?.toLowerCase().includes("application/x-ndjson") === true) {
      return new TranscriptError({
        file: transcript.file,
        line: entry.line,
        code: "framing",
        problem:
          "a streamed Ollama answer kept whole as one response: it is sent as one JSON value, not as lines, and the client cannot read it",
        fix: 'Write each line of the stream as its own {"type":"emit_inbound","ndjson":{…}} line, the last with "done": true',
      });
    }
  }
  return undefined;
};

export const ollama: HttpProviderFormat = {
  // A server on the app's own machine (127.0.0.1:11434), reached through OLLAMA_HOST or the client's host setting.
  hosts: [],
  checkFraming: (transcript) => framing(transcript) ?? streamKeptWhole(transcript),
  credentials: undefined,
  // The client raises `error` as the ResponseError's message, so the mismatch is a string there; the details sit beside it.
  mismatchBody: ({ message, ...details }) => ({ error: message, ...details }),
};
