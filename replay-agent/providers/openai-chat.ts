import { Effect } from "effect";
import { TranscriptError } from "../errors.ts";
import type { ResponseSink } from "../runtime/response-sink.ts";
import { exchangesOf, type Exchange } from "../transcript/exchanges.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { HttpResponseWriter } from "../wire/http-response.ts";
import { writeJsonResponse } from "../wire/json.ts";
import { writeSseEvent } from "../wire/sse.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

/**
 * The openai-chat wire format (`POST /v1/chat/completions`). A streamed answer is a run of
 * `data: <chunk JSON>` events ending with `data: [DONE]`; a non-streamed answer is one JSON
 * response; `fail` is an HTTP error status with the recorded error body, which the official
 * SDK raises as the `APIError` subclass for that status.
 */

const done = '{"type":"emit_inbound","sse":{"data":"[DONE]"}}';

/** Writes answer lines as OpenAI sent them: chunk JSON unchanged, `[DONE]` verbatim. */
const httpSink = (response: HttpResponseWriter): ResponseSink => ({
  send: (entry) =>
    Effect.sync(() => {
      switch (entry.type) {
        case "emit_inbound":
          if (entry.sse !== undefined) {
            const data = entry.sse.data === "[DONE]" ? "[DONE]" : JSON.stringify(entry.sse.data);
            writeSseEvent(response, { event: entry.sse.event, data });
          } else if (entry.response !== undefined) {
            writeJsonResponse(response, entry.response.status, entry.response.body, entry.response.headers);
          }
          return;
        case "fail":
          writeJsonResponse(response, entry.status, entry.body, entry.headers);
          return;
        case "disconnect":
        case "exit":
          response.destroy();
          return;
      }
    }),
  end: Effect.sync(() => response.end()),
});

/** An answer holds one of: sse frames ending with [DONE], one JSON response, or a fail; a disconnect may cut it short. */
const checkExchange = (file: string, { request, answer }: Exchange): TranscriptError | undefined => {
  const error = (line: number, problem: string, fix: string) =>
    new TranscriptError({ file, line, code: "framing", problem, fix });
  let stream: "none" | "open" | "done" = "none";
  let complete: { readonly what: string; readonly line: number } | undefined;
  let lastFrame = request.line;
  for (const entry of answer) {
    if (entry.type === "pause" || entry.type === "delay") continue;
    if (complete !== undefined) {
      return error(
        entry.line,
        `${entry.type} after the answer to line ${request.line} was complete (${complete.what} at line ${complete.line})`,
        "Start the next request with an expect_outbound line above it, or remove it",
      );
    }
    if (entry.type === "disconnect") {
      if (stream === "done") {
        return error(entry.line, "disconnect after [DONE]: the stream has already ended", "Remove the disconnect, or move it before [DONE]");
      }
      complete = { what: "disconnect", line: entry.line };
    } else if (entry.type === "fail") {
      if (stream !== "none") {
        return error(
          entry.line,
          "fail after sse frames: the stream's 200 status was already sent",
          'Record a mid-stream error as an sse frame, like {"type":"emit_inbound","sse":{"data":{"error":{"message":"…","type":"server_error"}}}}, or move the fail above the stream',
        );
      }
      complete = { what: "fail", line: entry.line };
    } else if (entry.type === "emit_inbound" && entry.response !== undefined) {
      if (stream !== "none") {
        return error(entry.line, "a whole JSON response after sse frames", "Answer a request with sse frames or with one response, not both");
      }
      complete = { what: "response", line: entry.line };
    } else if (entry.type === "emit_inbound" && entry.sse !== undefined) {
      if (stream === "done") {
        return error(entry.line, `sse frame after [DONE] (line ${lastFrame})`, "Remove it, or start the next request with an expect_outbound line above it");
      }
      stream = entry.sse.data === "[DONE]" ? "done" : "open";
      lastFrame = entry.line;
    }
  }
  if (stream === "open" && complete === undefined) {
    return error(
      lastFrame,
      `the stream answering line ${request.line} ends without [DONE]`,
      `End it with ${done}, or add {"type":"disconnect"} to drop the connection mid-stream`,
    );
  }
  if (stream === "none" && complete === undefined) {
    return error(
      request.line,
      "this request has no answer",
      `Add emit_inbound sse frames ending with ${done}, an emit_inbound response, a fail or a disconnect below it`,
    );
  }
  return undefined;
};

const checkFraming = (transcript: Transcript): TranscriptError | undefined => {
  for (const exchange of exchangesOf(transcript)) {
    const problem = checkExchange(transcript.file, exchange);
    if (problem !== undefined) return problem;
  }
  return undefined;
};

export const openAiChat: HttpProviderFormat = { checkFraming, httpSink };
