import type { Writable } from "node:stream";
import * as Effect from "effect/Effect";

/** One value as a line of newline-delimited JSON. */
export const formatNdjsonLine = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** Writes one NDJSON line to `output` and completes once the stream has taken it; a closed stream takes nothing. */
export const writeNdjsonLine = (output: Writable, value: unknown): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    if (output.destroyed || output.writableEnded) {
      resume(Effect.void);
      return;
    }
    output.write(formatNdjsonLine(value), () => resume(Effect.void));
  });
