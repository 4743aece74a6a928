import * as Effect from "effect/Effect";
import * as Predicate from "effect/Predicate";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { TranscriptError } from "../errors.ts";
import { validatePattern, formatDifferences } from "../runtime/pattern.ts";
import { writeItLike } from "./examples.ts";
import { describeIssue } from "./issues.ts";
import type { Provider } from "./providers.ts";
import { lineSchemas, lineTypes, type LineType } from "./schema.ts";

/** Any decoded line, `meta` included. */
export type DecodedLine = (typeof lineSchemas)[LineType]["Type"];

const parseOptions = { onExcessProperty: "error", errors: "all", reportInput: true } as const;

const decoders: { readonly [T in LineType]: (input: unknown) => Result.Result<DecodedLine, Schema.SchemaError> } = {
  meta: Schema.decodeUnknownResult(lineSchemas.meta, parseOptions),
  expect_outbound: Schema.decodeUnknownResult(lineSchemas.expect_outbound, parseOptions),
  emit_inbound: Schema.decodeUnknownResult(lineSchemas.emit_inbound, parseOptions),
  pause: Schema.decodeUnknownResult(lineSchemas.pause, parseOptions),
  delay: Schema.decodeUnknownResult(lineSchemas.delay, parseOptions),
  fail: Schema.decodeUnknownResult(lineSchemas.fail, parseOptions),
  disconnect: Schema.decodeUnknownResult(lineSchemas.disconnect, parseOptions),
  exit: Schema.decodeUnknownResult(lineSchemas.exit, parseOptions),
  mark: Schema.decodeUnknownResult(lineSchemas.mark, parseOptions),
  wait: Schema.decodeUnknownResult(lineSchemas.wait, parseOptions),
  hold: Schema.decodeUnknownResult(lineSchemas.hold, parseOptions),
};

/** The fix of a meta line's bad `pace`. */
const writePaceLike =
  'Write it like "pace":{"tokensPerSecond":40,"firstTokenMs":600}: tokens per second above 0, the milliseconds before the first frame from 0 up, either or both';

const isLineType = (type: unknown): type is LineType => lineTypes.some((known) => known === type);

/** One non-blank, non-comment line: JSON, a known `type`, its fields, and well-formed patterns; a fix quotes `provider`'s lines (undefined for meta). */
export const parseLine = Effect.fnUntraced(function* (
  file: string,
  line: number,
  text: string,
  provider: Provider | undefined,
): Effect.fn.Return<DecodedLine, TranscriptError> {
  const fail = (code: TranscriptError["code"], problem: string, fix: string) => new TranscriptError({ file, line, code, problem, fix });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return yield* fail(
      "bad_json",
      `this line is not valid JSON (${detail})`,
      "Write one JSON object per line; start a comment line with //",
    );
  }
  if (!Predicate.isObject(json)) {
    return yield* fail(
      "not_an_object",
      `each line must be a JSON object, got ${Array.isArray(json) ? "an array" : JSON.stringify(json)}`,
      'Write an object with a "type" field, like {"type":"delay","ms":250}',
    );
  }
  const type = json["type"];
  if (!isLineType(type)) {
    const got = type === undefined ? 'no "type" field' : `type ${JSON.stringify(type)}`;
    return yield* fail("unknown_type", `unknown line type: ${got}`, `Set "type" to one of ${lineTypes.join(", ")}`);
  }
  const sse = json["sse"];
  const misplaced = type === "emit_inbound" && Predicate.isObject(sse) ? ["cut", "join"].filter((key) => Object.hasOwn(sse, key)) : [];
  if (misplaced.length > 0) {
    return yield* fail(
      "invalid_field",
      `"sse.${misplaced[0] ?? ""}" is inside the frame's "sse" object, but "${misplaced[0] ?? ""}" shapes its writes and belongs beside "sse", on the emit_inbound line`,
      'Write it like {"type":"emit_inbound","sse":{"data":{…}},"cut":[{"at":40,"pause":"half-event"}]}',
    );
  }
  const decoded = decoders[type](json);
  if (Result.isFailure(decoded)) {
    const problem = `${type}: ${describeIssue(decoded.failure.issue)}`;
    return yield* fail("invalid_field", problem, problem.includes('"pace') ? writePaceLike : writeItLike(type, provider));
  }
  const value: DecodedLine = decoded.success;
  if (
    value.type === "meta" &&
    value.pace !== undefined &&
    value.pace.tokensPerSecond === undefined &&
    value.pace.firstTokenMs === undefined
  ) {
    return yield* fail("invalid_field", 'meta: "pace" sets no pace', writePaceLike);
  }
  if (value.type === "expect_outbound") {
    const problems = [
      ...validatePattern(value.request, "request"),
      ...(Object.hasOwn(value, "message") ? validatePattern(value.message, "message") : []),
      ...(value.spawn === undefined ? [] : validatePattern(value.spawn.args, "spawn.args")),
    ];
    if (problems.length > 0) {
      return yield* fail(
        "bad_pattern",
        `expect_outbound has an invalid pattern: ${formatDifferences(problems)}`,
        'Use {"$contains":"text"}, {"$regex":"source"}, {"$any":true} or {"$absent":true}, each alone in its object',
      );
    }
  }
  return value;
});
