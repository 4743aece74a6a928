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

/** First line of every transcript: what it is and which provider's wire format it replays. */
export const Meta = Schema.Struct({
  type: Schema.Literal("meta"),
  format: Schema.Literal("replay-transcript"),
  version: Schema.Literal(1),
  provider: Schema.Literals(providers),
  model: Schema.optionalKey(Schema.String),
  client: Schema.optionalKey(Schema.String),
  capturedAt: Schema.optionalKey(Schema.String),
  source: Schema.optionalKey(Schema.Literals(["recorded", "handwritten"])),
});
export type Meta = typeof Meta.Type;

/** An HTTP request pattern; every value may be a literal or a pattern operator. */
export const HttpRequestPattern = Schema.Struct({
  method: Schema.Unknown,
  path: Schema.Unknown,
  body: Schema.optionalKey(Schema.Unknown),
});
export type HttpRequestPattern = typeof HttpRequestPattern.Type;

/** The next request (HTTP) or message (stdio) the app must send. */
export const ExpectOutbound = Schema.Struct({
  type: Schema.Literal("expect_outbound"),
  request: Schema.optionalKey(HttpRequestPattern),
  message: Schema.optionalKey(Schema.Unknown),
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

/** A whole non-streaming HTTP response. */
export const HttpResponse = Schema.Struct({
  status: HttpStatus,
  headers: Schema.optionalKey(Headers),
  body: Schema.Unknown,
});
export type HttpResponse = typeof HttpResponse.Type;

/** A frame sent back to the app, in order. */
export const EmitInbound = Schema.Struct({
  type: Schema.Literal("emit_inbound"),
  sse: Schema.optionalKey(SseFrame),
  response: Schema.optionalKey(HttpResponse),
  message: Schema.optionalKey(Schema.Unknown),
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
} as const;
export type LineType = keyof typeof lineSchemas;

/** Every line type, in the order DESIGN.md lists them. */
export const lineTypes: ReadonlyArray<LineType> = [
  "meta",
  "expect_outbound",
  "emit_inbound",
  "pause",
  "delay",
  "fail",
  "disconnect",
  "exit",
];
