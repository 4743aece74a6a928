import * as Effect from "effect/Effect";
import type { SseFrame } from "../transcript/schema.ts";
import type { HttpResponseWriter } from "./http-response.ts";
import { transferHeaders } from "./json.ts";
import { afterWrite } from "./turn-loop.ts";

/** One server-sent event as text: an optional `event:` name and its `data:` payload. */
export interface SseEvent {
  readonly event?: string | undefined;
  readonly data: string;
}

/** What a stream is sent with when its transcript sets no head. */
export const sseHeaders: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
};

/**
 * A head line's headers over the `defaults` of its stream (server-sent events unless said), names
 * compared without case; recorded transfer headers are not sent again.
 */
export const streamHeaders = (
  headers: Readonly<Record<string, string>> = {},
  defaultHeaders: Readonly<Record<string, string>> = sseHeaders,
): Record<string, string> => {
  const given = Object.entries(headers).filter(([name]) => !transferHeaders.has(name.toLowerCase()));
  const named = new Set(given.map(([name]) => name.toLowerCase()));
  const defaults = Object.entries(defaultHeaders).filter(([name]) => !named.has(name));
  return Object.fromEntries([...defaults, ...given]);
};

/** `event: <name>\n` when named, one `data: ` line per payload line, and the blank line that ends the event. */
export const formatSseEvent = ({ event, data }: SseEvent): string =>
  `${event === undefined ? "" : `event: ${event}\n`}${data
    .split("\n")
    .map((line) => `data: ${line}\n`)
    .join("")}\n`;

/** The text of one transcript frame as it goes on the wire: its recorded event name and its data JSON, or `[DONE]`. */
export const sseFrameText = (frame: SseFrame): string =>
  formatSseEvent({ event: frame.event, data: frame.data === "[DONE]" ? "[DONE]" : JSON.stringify(frame.data) });

/** Writes `bytes` and completes once the connection has taken them (or has closed). */
const writeTaken = (response: HttpResponseWriter, bytes: Uint8Array): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    response.write(bytes, () => resume(Effect.void));
  });

/**
 * Writes each of `writes` as its own write, the next only once the connection has taken the one
 * before, so no two are merged into one segment (the loop turned between them as
 * TurnLoopBetweenWrites says); sends a 200 head with the stream's default
 * headers (event-stream unless said) with the first write when no head line was sent.
 */
export const writeStreamWrites = (
  response: HttpResponseWriter,
  writes: ReadonlyArray<Uint8Array>,
  defaultHeaders: Readonly<Record<string, string>> = sseHeaders,
): Effect.Effect<void> =>
  Effect.suspend(() => {
    if (!response.headersSent) response.writeHead(200, streamHeaders({}, defaultHeaders));
    return Effect.forEach(writes, (bytes) => Effect.andThen(writeTaken(response, bytes), afterWrite), { discard: true });
  });
