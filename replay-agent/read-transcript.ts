import { readFile } from "node:fs/promises";
import * as Effect from "effect/Effect";
import { TranscriptReadError, type TranscriptError } from "./errors.ts";
import { framingOf } from "./providers/registry.ts";
import { parseTranscript } from "./transcript/parse.ts";
import type { Transcript } from "./transcript/transcript.ts";

/** Validates transcript text: schema, order, and its provider's framing rules; `file` names it in errors. */
export const validateTranscript = Effect.fn("validateTranscript")(function* (
  file: string,
  text: string,
): Effect.fn.Return<Transcript, TranscriptError> {
  const transcript = yield* parseTranscript(file, text);
  const problem = framingOf(transcript)(transcript);
  if (problem !== undefined) return yield* problem;
  return transcript;
});

/** Reads and validates a transcript file. */
export const readTranscript = Effect.fn("readTranscript")(function* (
  path: string,
): Effect.fn.Return<Transcript, TranscriptError | TranscriptReadError> {
  const text = yield* Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (error) => new TranscriptReadError({ file: path, detail: error instanceof Error ? error.message : String(error) }),
  });
  return yield* validateTranscript(path, text);
});
