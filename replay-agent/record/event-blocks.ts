/** One blank-line-terminated block of an event stream as the upstream sent it: its bytes, and where they lie in the stream. */
export interface RawBlock {
  /** Byte offset of the block's first byte in the stream. */
  readonly start: number;
  /** Byte offset just past the blank line that ends it. */
  readonly end: number;
  readonly bytes: Uint8Array;
}

const lf = 0x0a;
const cr = 0x0d;

/**
 * Splits an event stream into its blocks at the byte level as its chunks arrive, so the recorder
 * knows where each event lay between the upstream's chunk boundaries. Lines end with LF, CRLF or
 * CR (a CRLF split across two chunks is one line end), and a block ends at an empty line, the
 * rules `makeSseParser` follows. Comment and empty blocks are blocks too.
 */
export const makeBlockScanner = () => {
  /** Bytes of the stream seen so far. */
  let position = 0;
  /** The block in progress: its first byte's offset and its bytes so far. */
  let blockStart = 0;
  let partial: Uint8Array = new Uint8Array(0);
  let lineStart = true;
  /** A CR was the last byte: whether it ended a line or the block, waiting to see if an LF belongs to it. */
  let afterCr: "none" | "line" | "block" = "none";

  const take = (end: number, blocks: Array<RawBlock>) => {
    blocks.push({ start: blockStart, end, bytes: partial.subarray(0, end - blockStart) });
    partial = partial.subarray(end - blockStart);
    blockStart = end;
  };

  return {
    /** Where the block in progress starts (the end of the last whole block). */
    get blockStart() {
      return blockStart;
    },
    /** The blocks `chunk` completes, in order. */
    push: (chunk: Uint8Array): ReadonlyArray<RawBlock> => {
      const blocks: Array<RawBlock> = [];
      const joined = new Uint8Array(partial.length + chunk.length);
      joined.set(partial);
      joined.set(chunk, partial.length);
      partial = joined;
      for (let index = 0; index < chunk.length; index++) {
        const byte = chunk[index];
        const at = position + index;
        if (afterCr !== "none") {
          const ended = afterCr === "block";
          afterCr = "none";
          if (byte === lf) {
            if (ended) take(at + 1, blocks);
            continue;
          }
          if (ended) take(at, blocks);
        }
        if (byte === lf) {
          if (lineStart) take(at + 1, blocks);
          lineStart = true;
        } else if (byte === cr) {
          afterCr = lineStart ? "block" : "line";
          lineStart = true;
        } else {
          lineStart = false;
        }
      }
      position += chunk.length;
      return blocks;
    },
    /** At the end of the stream: a block whose last CR was waiting for an LF. A block cut off without its blank line is no block. */
    end: (): ReadonlyArray<RawBlock> => {
      const blocks: Array<RawBlock> = [];
      if (afterCr === "block") take(position, blocks);
      afterCr = "none";
      return blocks;
    },
  };
};
