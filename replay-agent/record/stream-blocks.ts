import type { StreamKind } from "../wire/stream-frame.ts";
import { makeBlockScanner, type RawBlock } from "./event-blocks.ts";

/** Splits a stream into its frames' bytes as its chunks arrive; `blockStart` is where the frame in progress starts. */
export interface BlockScanner {
  readonly blockStart: number;
  push(chunk: Uint8Array): ReadonlyArray<RawBlock>;
  end(): ReadonlyArray<RawBlock>;
}

const lf = 0x0a;

/** Joins what was held with a new chunk. */
const concat = (held: Uint8Array, chunk: Uint8Array): Uint8Array => {
  const joined = new Uint8Array(held.length + chunk.length);
  joined.set(held);
  joined.set(chunk, held.length);
  return joined;
};

/**
 * Splits newline-delimited JSON into its lines, each with its line feed (a CR before it belongs to
 * the line); a last line without a line feed is a block at the end of the stream.
 */
export const makeLineScanner = (): BlockScanner => {
  let blockStart = 0;
  let partial: Uint8Array = new Uint8Array(0);
  return {
    get blockStart() {
      return blockStart;
    },
    push: (chunk) => {
      const blocks: Array<RawBlock> = [];
      partial = concat(partial, chunk);
      for (let at = partial.indexOf(lf); at !== -1; at = partial.indexOf(lf)) {
        blocks.push({ start: blockStart, end: blockStart + at + 1, bytes: partial.subarray(0, at + 1) });
        blockStart += at + 1;
        partial = partial.subarray(at + 1);
      }
      return blocks;
    },
    end: () => {
      if (partial.length === 0) return [];
      const block = { start: blockStart, end: blockStart + partial.length, bytes: partial };
      blockStart += partial.length;
      partial = new Uint8Array(0);
      return [block];
    },
  };
};

/** Splits an AWS event stream into its messages by the total length each one's prelude gives. A message cut off at the end is no block. */
export const makeMessageScanner = (): BlockScanner => {
  let blockStart = 0;
  let partial: Uint8Array = new Uint8Array(0);
  return {
    get blockStart() {
      return blockStart;
    },
    push: (chunk) => {
      const blocks: Array<RawBlock> = [];
      partial = concat(partial, chunk);
      while (partial.length >= 4) {
        const total = new DataView(partial.buffer, partial.byteOffset, 4).getUint32(0);
        if (total < 16 || partial.length < total) break;
        blocks.push({ start: blockStart, end: blockStart + total, bytes: partial.subarray(0, total) });
        blockStart += total;
        partial = partial.subarray(total);
      }
      return blocks;
    },
    end: () => [],
  };
};

/** The scanner of a stream of `kind`. */
export const scannerOf = (kind: StreamKind): BlockScanner => {
  switch (kind) {
    case "sse":
      return makeBlockScanner();
    case "ndjson":
      return makeLineScanner();
    case "eventstream":
      return makeMessageScanner();
  }
};

/** The kind of stream an answer's content type says it is, if it is a stream the recorder records frame by frame. */
export const streamKindOfContentType = (contentType: string): StreamKind | undefined => {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "text/event-stream") return "sse";
  if (type === "application/x-ndjson" || type === "application/ndjson" || type === "application/jsonl") return "ndjson";
  if (type === "application/vnd.amazon.eventstream") return "eventstream";
  return undefined;
};
