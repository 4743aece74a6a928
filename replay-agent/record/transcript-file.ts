import { accessSync, constants, existsSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import * as Effect from "effect/Effect";
import { RecordOutputError } from "../errors.ts";
import { formatNdjsonLine } from "../wire/ndjson.ts";

/** How much a recording holds so far. */
export interface RecordingCounts {
  readonly requests: number;
  readonly frames: number;
}

/** One transcript line, as JSON. */
export interface RecordedLine {
  readonly type: string;
  readonly [field: string]: unknown;
}

/**
 * A transcript being recorded. Each line is appended with one synchronous write the moment it
 * is known, so a recorder that is stopped at any point leaves every line it saw on disk.
 */
export interface TranscriptFile {
  /** Appends one line, written at once. */
  readonly append: (line: RecordedLine) => Effect.Effect<void, RecordOutputError>;
  readonly counts: () => RecordingCounts;
}

/** Checks that a new recording can be written to `path`: its directory is writable and the file does not exist yet. */
export const checkNewTranscript = (path: string): Effect.Effect<void, RecordOutputError> =>
  Effect.try({
    try: () => {
      if (existsSync(path)) throw new Error("the file already exists");
      accessSync(dirname(path), constants.W_OK);
    },
    catch: (error) => new RecordOutputError({ file: path, detail: error instanceof Error ? error.message : String(error) }),
  });

/** Opens `path` for a new recording: its directory must be writable and the file must not exist yet. */
export const openTranscriptFile = (path: string): Effect.Effect<TranscriptFile, RecordOutputError> =>
  Effect.gen(function* () {
    yield* checkNewTranscript(path);
    let requests = 0;
    let frames = 0;
    const write = (line: RecordedLine) =>
      Effect.try({
        try: () => writeFileSync(path, formatNdjsonLine(line), { flag: "a" }),
        catch: (error) => new RecordOutputError({ file: path, detail: error instanceof Error ? error.message : String(error) }),
      });
    const append = (line: RecordedLine) =>
      write(line).pipe(
        Effect.map(() => {
          if (line.type === "expect_outbound") requests++;
          // A head line holds the status and headers of the frames after it, no frame of its own.
          if (line.type === "emit_inbound" && !("head" in line)) frames++;
        }),
      );
    return { append, counts: () => ({ requests, frames }) };
  });
