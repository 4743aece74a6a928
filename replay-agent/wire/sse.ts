import * as Effect from "effect/Effect";
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

/**
 * About how many bytes each write of a stream carries: the first write is small so its events
 * go out at once, each next one doubles up to the cap, so a long stream takes few writes and
 * no single write holds the event loop long.
 */
const writeSizes = { first: 16 * 1024, max: 1024 * 1024 };

/** Encodes consecutive events into the writes that carry them, each write whole events. */
export const encodeSseEvents = (events: ReadonlyArray<SseEvent>): ReadonlyArray<Buffer> => {
  const writes: Array<Buffer> = [];
  let texts: Array<string> = [];
  let size = 0;
  let limit = writeSizes.first;
  const cut = () => {
    writes.push(Buffer.from(texts.join(""), "utf8"));
    texts = [];
    size = 0;
    limit = Math.min(limit * 2, writeSizes.max);
  };
  for (const event of events) {
    const text = formatSseEvent(event);
    texts.push(text);
    size += Buffer.byteLength(text, "utf8");
    if (size >= limit) cut();
  }
  if (texts.length > 0) cut();
  return writes;
};

/** Writes `bytes` and completes once the connection has taken them. */
const writeTaken = (response: HttpResponseWriter, bytes: Uint8Array): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    response.write(bytes, () => resume(Effect.void));
  });

/**
 * Writes events `encodeSseEvents` encoded to `response`, sending the 200 event-stream head with
 * the first write the first time; completes once the connection has taken the last. Between two
 * writes the event loop turns, so a reader in this process has the first events early.
 */
export const writeSseEvents = (response: HttpResponseWriter, writes: ReadonlyArray<Uint8Array>): Effect.Effect<void> =>
  Effect.suspend(() => {
    if (!response.headersSent) response.writeHead(200, sseHeaders);
    return Effect.forEach(writes, (bytes, index) => (index === 0 ? writeTaken(response, bytes) : Effect.andThen(Effect.yieldNow, writeTaken(response, bytes))), {
      discard: true,
    });
  });
