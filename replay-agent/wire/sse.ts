import type { HttpResponseWriter } from "./http-response.ts";

/** One server-sent event as text: an optional `event:` name and its `data:` payload. */
export interface SseEvent {
  readonly event?: string | undefined;
  readonly data: string;
}

export const sseHeaders: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
};

/** `event: <name>\n` when named, one `data: ` line per payload line, and the blank line that ends the event. */
export const formatSseEvent = ({ event, data }: SseEvent): string =>
  `${event === undefined ? "" : `event: ${event}\n`}${data
    .split("\n")
    .map((line) => `data: ${line}\n`)
    .join("")}\n`;

/** Writes events to `response`, sending the 200 event-stream head before the first one. */
export const writeSseEvent = (response: HttpResponseWriter, event: SseEvent): void => {
  if (!response.headersSent) response.writeHead(200, sseHeaders);
  response.write(formatSseEvent(event));
};
