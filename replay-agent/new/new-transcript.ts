import { readFile, writeFile } from "node:fs/promises";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import type { TranscriptError } from "../errors.ts";
import { validateTranscript } from "../read-transcript.ts";
import type { Transcript } from "../transcript/transcript.ts";
import { decodeDescription, type Description } from "./description.ts";
import { commandLine, DescriptionError, NewFileError } from "./errors.ts";
import { writeTranscript } from "./write-transcript.ts";

/** Where `replay-agent new` takes its description from: a `--from` file, or the command line's flags. */
export type NewSource = { readonly from: string } | { readonly description: Description };

const detail = (error: unknown) => (error instanceof Error ? error.message : String(error));

const readDescription = Effect.fn("readDescription")(function* (
  file: string,
): Effect.fn.Return<Description, DescriptionError | NewFileError> {
  const text = yield* Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (error) => new NewFileError({ file, operation: "read", detail: detail(error) }),
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return yield* new DescriptionError({
      source: file,
      where: "",
      problem: `not valid JSON (${detail(error)})`,
      fix: "Write the description as one JSON object",
    });
  }
  const description = decodeDescription(file, json);
  if (Result.isFailure(description)) return yield* description.failure;
  return description.success;
});

/**
 * The transcript `source` describes, as text whose first line names `command`, checked by the same
 * parser and framing rules as `replay-agent check` (named `file` in its errors).
 */
export const newTranscript = Effect.fn("newTranscript")(function* (
  source: NewSource,
  command: string,
  file: string,
): Effect.fn.Return<{ readonly text: string; readonly transcript: Transcript }, DescriptionError | NewFileError | TranscriptError> {
  const description = "from" in source ? yield* readDescription(source.from) : source.description;
  const text = writeTranscript("from" in source ? source.from : commandLine, description, command);
  if (Result.isFailure(text)) return yield* text.failure;
  const transcript = yield* validateTranscript(file, text.success);
  return { text: text.success, transcript };
});

/** Writes a new transcript to `file`, which must not exist yet: a transcript there may hold edits. */
export const writeNewTranscript = (file: string, text: string) =>
  Effect.tryPromise({
    try: () => writeFile(file, text, { flag: "wx" }),
    catch: (error) => new NewFileError({ file, operation: "write", detail: detail(error) }),
  });
