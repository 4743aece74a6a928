import * as Effect from "effect/Effect";
import * as Predicate from "effect/Predicate";
import { TranscriptError } from "../errors.ts";
import { writeItLike } from "./examples.ts";
import { orderProblem } from "./ordering.ts";
import { parseLine } from "./parse-line.ts";
import { providerTransport } from "./providers.ts";
import type { Meta } from "./schema.ts";
import type { Located, Transcript, TranscriptEntry } from "./transcript.ts";
import { transportViolation } from "./transport-rules.ts";

interface SourceLine {
  readonly line: number;
  readonly text: string;
}

/** The lines that carry entries: blank lines and `//` comment lines are ignored. */
const sourceLines = (text: string): ReadonlyArray<SourceLine> =>
  text
    .split(/\r?\n/)
    .map((content, index) => ({ line: index + 1, text: content }))
    .filter(({ text: content }) => content.trim() !== "" && !content.trim().startsWith("//"));

/** The `type` of a line that is a JSON object, if it has one. */
const peekType = (text: string): unknown => {
  try {
    const json: unknown = JSON.parse(text);
    return Predicate.isObject(json) ? json["type"] : undefined;
  } catch {
    return undefined;
  }
};

/** Parses NDJSON transcript text (schema, order, transport rules, and marks, waits and holds that can play); `file` only names it in errors. */
export const parseTranscript = Effect.fn("parseTranscript")(function* (
  file: string,
  text: string,
): Effect.fn.Return<Transcript, TranscriptError> {
  const [first, ...rest] = sourceLines(text);
  if (first === undefined) {
    return yield* new TranscriptError({
      file,
      line: 1,
      code: "empty",
      problem: "the transcript has no lines",
      fix: `Start it with the meta line. ${writeItLike("meta")}`,
    });
  }
  const firstType = peekType(first.text);
  if (firstType !== undefined && firstType !== "meta") {
    return yield* new TranscriptError({
      file,
      line: first.line,
      code: "meta_not_first",
      problem: `the first line must be the meta line, got ${JSON.stringify(firstType)}`,
      fix: `Add a meta line above it. ${writeItLike("meta")}`,
    });
  }
  const decodedMeta = yield* parseLine(file, first.line, first.text, undefined);
  if (decodedMeta.type !== "meta") {
    return yield* new TranscriptError({
      file,
      line: first.line,
      code: "meta_not_first",
      problem: "the first line must be the meta line",
      fix: writeItLike("meta"),
    });
  }
  const meta: Located<Meta> = { ...decodedMeta, line: first.line };
  const transport = providerTransport[meta.provider];
  const entries: Array<TranscriptEntry> = [];
  for (const { line, text: content } of rest) {
    const decoded = yield* parseLine(file, line, content, meta.provider);
    const fail = (code: TranscriptError["code"], problem: string, fix: string) => new TranscriptError({ file, line, code, problem, fix });
    if (decoded.type === "meta") {
      return yield* fail(
        "meta_not_first",
        `a second meta line (the first is line ${meta.line})`,
        "Keep only the meta line at the top of the file",
      );
    }
    const violation = transportViolation(decoded, meta.provider);
    if (violation !== undefined) return yield* fail("invalid_field", violation.problem, violation.fix);
    if (decoded.type === "expect_outbound" && decoded.spawn !== undefined && entries.length > 0) {
      return yield* fail(
        "order",
        `expect_outbound with "spawn" after line ${entries[0]?.line ?? meta.line}: the agent's arguments are matched when the app starts it, before anything else`,
        "Move it to the first line after meta",
      );
    }
    if (transport !== "stdio" && entries.length === 0 && decoded.type !== "expect_outbound") {
      return yield* fail(
        "order",
        `${decoded.type} before any expect_outbound: ${transport === "http" ? "an HTTP provider only answers requests" : "a WebSocket provider speaks once the app opens a connection"}`,
        `Put the expect_outbound line of the request it answers above it. ${writeItLike("expect_outbound", meta.provider)}`,
      );
    }
    entries.push({ ...decoded, line });
  }
  const transcript: Transcript = { file, meta, entries };
  const misordered = orderProblem(transcript);
  if (misordered !== undefined) return yield* new TranscriptError({ file, code: "order", ...misordered });
  return transcript;
});
