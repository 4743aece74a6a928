import { Effect } from "effect";
import type { ResponseSink } from "../runtime/response-sink.ts";
import type { HttpResponseWriter } from "./http-response.ts";
import { writeJsonResponse } from "./json.ts";
import { writeSseEvent } from "./sse.ts";

/**
 * Writes one request's answer lines to an HTTP response exactly as recorded, whatever the
 * provider: an sse frame as its `event:` name (when recorded) and its data JSON or `[DONE]`,
 * a whole JSON response, a fail as its status and body, a disconnect as a dropped connection.
 */
export const httpAnswerSink = (response: HttpResponseWriter): ResponseSink => ({
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
