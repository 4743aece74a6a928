import { TranscriptError } from "../errors.ts";
import { exchangesOf } from "../transcript/exchanges.ts";
import type { Transcript } from "../transcript/transcript.ts";

/**
 * The rules every WebSocket provider shares, on top of the transport rules: the transcript opens
 * a connection (a `request` expectation, method GET) before anything is sent on one; a `fail`
 * refuses a connection, so it only answers a `request` and comes before any message; nothing
 * follows a `fail` or a `disconnect` in its answer, since the connection is gone.
 */
export const checkWebSocketExchanges = (transcript: Transcript): TranscriptError | undefined => {
  const error = (line: number, problem: string, fix: string) =>
    new TranscriptError({ file: transcript.file, line, code: "framing", problem, fix });
  const [first] = exchangesOf(transcript);
  if (first !== undefined && first.request.request === undefined) {
    return error(
      first.request.line,
      "the first expect_outbound is a message, but the app sends messages on a connection it has opened",
      'Put the expect_outbound of the connection above it, like {"type":"expect_outbound","request":{"method":"GET","path":"/v1/realtime?model=gpt-realtime"}}',
    );
  }
  for (const { request, answer } of exchangesOf(transcript)) {
    const method = request.request?.method;
    if (typeof method === "string" && method !== "GET") {
      return error(request.line, `a WebSocket connection opens with a GET request, and this one expects ${method}`, 'Write "method":"GET"');
    }
    let sent: number | undefined;
    let ended: { readonly what: string; readonly line: number } | undefined;
    for (const entry of answer) {
      if (ended !== undefined) {
        return error(
          entry.line,
          `${entry.type} after the ${ended.what} at line ${ended.line}: the connection is gone`,
          `Remove it, or move the ${ended.what} below it`,
        );
      }
      if (entry.type === "emit_inbound") sent ??= entry.line;
      if (entry.type === "fail") {
        if (request.request === undefined) {
          return error(
            entry.line,
            "fail refuses a connection with an HTTP status, and this answers a message sent on an open one",
            'Send the provider\'s error event instead, e.g. {"type":"emit_inbound","message":{"type":"error",…}}, or end the connection with {"type":"disconnect"}',
          );
        }
        if (sent !== undefined) {
          return error(
            entry.line,
            `fail refuses the connection, but the message at line ${sent} has already opened it`,
            "Move the fail above the messages, or end the open connection with a disconnect",
          );
        }
      }
      if (entry.type === "fail" || entry.type === "disconnect") ended = { what: entry.type, line: entry.line };
    }
  }
  return undefined;
};
