import * as Schema from "effect/Schema";
import { providers } from "./providers.ts";

const JsonObject = Schema.Record(Schema.String, Schema.Unknown);
const Headers = Schema.Record(Schema.String, Schema.String).annotate({
  expected: 'an object of header names to string values, like {"retry-after":"1"}',
});
const HttpStatus = Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 599 }));
const ErrorStatus = Schema.Int.check(Schema.isBetween({ minimum: 400, maximum: 599 })).annotate({
  expected: "an HTTP error status from 400 to 599",
});

/**
 * The pace a transcript's answers stream at: `firstTokenMs` before an answer's first frame, then
 * 1000 / `tokensPerSecond` ms before each later one (one frame is one token). Either or both.
 */
export const Pace = Schema.Struct({
  tokensPerSecond: Schema.optionalKey(
    Schema.Finite.check(Schema.isGreaterThan(0)).annotate({ expected: "tokens per second, a number greater than 0, like 40" }),
  ),
  firstTokenMs: Schema.optionalKey(
    Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
      expected: "the milliseconds before an answer's first frame, a number from 0 up, like 600",
    }),
  ),
});
export type Pace = typeof Pace.Type;

/** First line of every transcript: what it is and which provider's wire format it replays, and the pace its answers stream at. */
export const Meta = Schema.Struct({
  type: Schema.Literal("meta"),
  format: Schema.Literal("replay-transcript"),
  version: Schema.Literal(1),
  provider: Schema.Literals(providers),
  model: Schema.optionalKey(Schema.String),
  client: Schema.optionalKey(Schema.String),
  capturedAt: Schema.optionalKey(Schema.String),
  source: Schema.optionalKey(Schema.Literals(["recorded", "handwritten"])),
  pace: Schema.optionalKey(Pace),
});
export type Meta = typeof Meta.Type;

/** An HTTP request pattern; every value may be a literal or a pattern operator. */
export const HttpRequestPattern = Schema.Struct({
  method: Schema.Unknown,
  path: Schema.Unknown,
  body: Schema.optionalKey(Schema.Unknown),
});
export type HttpRequestPattern = typeof HttpRequestPattern.Type;

/** The arguments a stdio agent must be started with, as a pattern over the argv after the agent's command. */
export const SpawnPattern = Schema.Struct({
  args: Schema.Unknown,
});
export type SpawnPattern = typeof SpawnPattern.Type;

/** How many requests one expectation answers: a positive count, or any number. */
const Times = Schema.Union([Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), Schema.Literal("any")]).annotate({
  expected: 'a whole number of requests from 1 up, or "any"',
});

/**
 * The next request (HTTP) or message (stdio) the app must send, or (stdio, first line only) the
 * arguments it starts the agent with (`spawn`). `lane` names the ordered sequence it belongs to
 * (default "main"), `unordered` gives it a lane of its own, `times` says how many requests it
 * answers and `optional` lets it answer fewer, none included.
 */
export const ExpectOutbound = Schema.Struct({
  type: Schema.Literal("expect_outbound"),
  request: Schema.optionalKey(HttpRequestPattern),
  message: Schema.optionalKey(Schema.Unknown),
  spawn: Schema.optionalKey(SpawnPattern),
  lane: Schema.optionalKey(Schema.NonEmptyString),
  unordered: Schema.optionalKey(Schema.Literal(true)),
  times: Schema.optionalKey(Times),
  optional: Schema.optionalKey(Schema.Literal(true)),
});
export type ExpectOutbound = typeof ExpectOutbound.Type;

/** One server-sent event, with `data` kept as the provider sent it. */
export const SseFrame = Schema.Struct({
  event: Schema.optionalKey(Schema.String),
  data: Schema.Union([JsonObject, Schema.Literal("[DONE]")]).annotate({
    expected: 'a JSON object (the event as the provider sent it) or the string "[DONE]"',
  }),
});
export type SseFrame = typeof SseFrame.Type;

/**
 * One AWS event-stream message (`application/vnd.amazon.eventstream`, as Bedrock streams): its
 * headers (`:event-type`, `:content-type`, `:message-type`, all strings) and its payload, the JSON
 * the provider sent. It is written as the binary frame with its prelude and message CRCs.
 */
export const EventStreamFrame = Schema.Struct({
  headers: Headers,
  payload: JsonObject,
});
export type EventStreamFrame = typeof EventStreamFrame.Type;

/** Where a piece of a frame ends, and what happens before the next piece: nothing, a delay, or a pause. */
export const Cut = Schema.Union([
  Schema.Int,
  Schema.Struct({ at: Schema.Int, delay: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)) }),
  Schema.Struct({ at: Schema.Int, pause: Schema.NonEmptyString }),
]).annotate({ expected: 'a byte offset like 12, {"at":12,"delay":25} or {"at":12,"pause":"half-event"}' });
export type Cut = typeof Cut.Type;

/** The status and headers of a streamed answer, sent before its first frame. */
export const StreamHead = Schema.Struct({
  status: Schema.Int.check(Schema.isBetween({ minimum: 200, maximum: 599 })).annotate({ expected: "an HTTP status from 200 to 599" }),
  headers: Schema.optionalKey(Headers),
});
export type StreamHead = typeof StreamHead.Type;

/** A whole non-streaming HTTP response. */
export const HttpResponse = Schema.Struct({
  status: HttpStatus,
  headers: Schema.optionalKey(Headers),
  body: Schema.Unknown,
});
export type HttpResponse = typeof HttpResponse.Type;

/**
 * A frame sent back to the app, in order. A streamed frame (`sse`, `ndjson` or `eventstream`) is
 * its own write unless `cut` ends writes inside it (byte offsets into the frame as written) or
 * `join` puts it in one write with the next frame; `head` sets the status and headers of the
 * stream that follows; `message` is one message on a WebSocket or a stdio agent's stdout.
 */
export const EmitInbound = Schema.Struct({
  type: Schema.Literal("emit_inbound"),
  sse: Schema.optionalKey(SseFrame),
  ndjson: Schema.optionalKey(Schema.Unknown),
  eventstream: Schema.optionalKey(EventStreamFrame),
  head: Schema.optionalKey(StreamHead),
  response: Schema.optionalKey(HttpResponse),
  message: Schema.optionalKey(Schema.Unknown),
  cut: Schema.optionalKey(Schema.Array(Cut)),
  join: Schema.optionalKey(Schema.Literal(true)),
});
export type EmitInbound = typeof EmitInbound.Type;

/** Holds the transcript until the scenario resumes it. */
export const Pause = Schema.Struct({
  type: Schema.Literal("pause"),
  name: Schema.NonEmptyString,
});
export type Pause = typeof Pause.Type;

/** Waits before the next frame. */
export const Delay = Schema.Struct({
  type: Schema.Literal("delay"),
  ms: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)),
});
export type Delay = typeof Delay.Type;

/** Answers the current request with an HTTP error instead of a stream. */
export const Fail = Schema.Struct({
  type: Schema.Literal("fail"),
  status: ErrorStatus,
  body: Schema.Unknown,
  headers: Schema.optionalKey(Headers),
});
export type Fail = typeof Fail.Type;

/** Drops the connection. */
export const Disconnect = Schema.Struct({
  type: Schema.Literal("disconnect"),
});
export type Disconnect = typeof Disconnect.Type;

/** stdio: the agent process exits with `code`. */
export const Exit = Schema.Struct({
  type: Schema.Literal("exit"),
  code: Schema.Int,
});
export type Exit = typeof Exit.Type;

/** Records that mark `name` was reached, once the lines before it in its answer have played; a `wait` for it may then go on. */
export const Mark = Schema.Struct({
  type: Schema.Literal("mark"),
  name: Schema.NonEmptyString,
});
export type Mark = typeof Mark.Type;

/** Holds its answer until mark `for` has been reached, in any lane; other lanes go on meanwhile. */
export const Wait = Schema.Struct({
  type: Schema.Literal("wait"),
  for: Schema.NonEmptyString,
});
export type Wait = typeof Wait.Type;

/** Keeps its answer open (a stream never ended) until the app closes it or the replay agent stops; played once reached. */
export const Hold = Schema.Struct({
  type: Schema.Literal("hold"),
});
export type Hold = typeof Hold.Type;

/** The schema of every line type, by its `type`. */
export const lineSchemas = {
  meta: Meta,
  expect_outbound: ExpectOutbound,
  emit_inbound: EmitInbound,
  pause: Pause,
  delay: Delay,
  fail: Fail,
  disconnect: Disconnect,
  exit: Exit,
  mark: Mark,
  wait: Wait,
  hold: Hold,
} as const;
export type LineType = keyof typeof lineSchemas;

/** Every line type, in the order docs/transcripts.md lists them. */
export const lineTypes: ReadonlyArray<LineType> = [
  "meta",
  "expect_outbound",
  "emit_inbound",
  "pause",
  "delay",
  "fail",
  "disconnect",
  "exit",
  "mark",
  "wait",
  "hold",
];
