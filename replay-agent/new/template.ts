import type { EventStreamFrame, SseFrame } from "../transcript/schema.ts";
import type { StreamFrame } from "../wire/stream-frame.ts";

/** The contract each provider's template fulfils for `replay-agent new`: how its requests look, and the lines that answer. */

/** A tool call the answer makes, with its id already chosen (undefined: the provider names no tool calls). */
export interface PlannedCall {
  readonly id: string | undefined;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Text the tool result the app sends back must contain; undefined: any result. */
  readonly result: string | undefined;
}

/** Everything one answer says, before a provider shapes it into frames or a body. */
export interface PlannedAnswer {
  /** Derives this answer's ids: the same description gives the same ids. */
  readonly seed: string;
  /** The model as the provider names it in its answers (a dated snapshot for OpenAI). */
  readonly model: string;
  /** The model's thinking, streamed before the reply; undefined when the answer shows none. */
  readonly thinking: string | undefined;
  /** The reply's text; undefined when the answer has no text part. */
  readonly text: string | undefined;
  readonly calls: ReadonlyArray<PlannedCall>;
  /** Token counts: `output` includes `thinking`, the tokens spent thinking. */
  readonly usage: { readonly input: number; readonly output: number; readonly thinking: number };
  /** openai-chat: the stream ends with a usage chunk, as with stream_options.include_usage. */
  readonly usageChunk: boolean;
}

/** An error status answering a request. */
export interface PlannedFail {
  readonly seed: string;
  readonly model: string;
  readonly status: number;
  readonly message: string | undefined;
  readonly retryAfter: number | undefined;
}

/** One streamed frame; `delta` marks the frames a pause counts (thinking, text, tool calls and their argument fragments). */
export interface Frame {
  readonly frame: StreamFrame;
  readonly delta: boolean;
}

export const sseFrame = (sse: SseFrame, delta = false): Frame => ({ frame: { kind: "sse", sse }, delta });
export const ndjsonFrame = (value: unknown, delta = false): Frame => ({ frame: { kind: "ndjson", value }, delta });
export const eventStreamFrame = (frame: EventStreamFrame, delta = false): Frame => ({ frame: { kind: "eventstream", frame }, delta });

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** What a request to match is: its model (undefined: any), whether it streams (undefined: either), and what it asks for. */
export interface RequestAsked {
  readonly model: string | undefined;
  readonly stream: boolean | undefined;
  /** openai-chat: the request asks for the usage chunk (stream_options.include_usage). */
  readonly usageChunk: boolean;
  /** The request asks for the model's thinking. */
  readonly thinking: boolean;
}

/** A request's path and body patterns, without the conversation. */
export interface RequestPattern {
  readonly path: unknown;
  readonly body: Readonly<Record<string, unknown>>;
}

/** Text a message must hold: exactly this string, or a string containing it. */
export type TextMatch = string | { readonly $contains: string };

/** How one HTTP provider is asked and how it answers. */
export interface ProviderTemplate {
  /** The model a request names when the description names none; `thinking`: a model that thinks. */
  readonly defaultModel: (thinking: boolean) => string;
  /** The path and body a request carries: where the model goes, and how it asks for a stream or a whole answer. */
  readonly request: (asked: RequestAsked) => RequestPattern;
  /** The model as the provider names it in its answers. */
  readonly answerModel: (model: string) => string;
  /** A tool call id in the provider's style, from a seed; undefined when its tool calls have no id unless the description gives one. */
  readonly toolId: ((seed: string, name: string) => string) | undefined;
  /** Whether a tool call can carry an id at all (a description's `tools[].id`). */
  readonly takesToolIds: boolean;
  /** Whether the provider streams the model's thinking in a form `new` writes. */
  readonly thinking: boolean;
  /** Body patterns of a request whose conversation ends with the person's message. */
  readonly userTurn: (text: TextMatch) => Readonly<Record<string, unknown>>;
  /** Body patterns of the request whose conversation ends with these calls' results. */
  readonly toolResultTurn: (calls: ReadonlyArray<PlannedCall>) => Readonly<Record<string, unknown>>;
  /** The headers a streamed answer starts with (a head line); undefined when the stream's defaults are the provider's. */
  readonly streamHeaders: ((seed: string) => Readonly<Record<string, string>>) | undefined;
  readonly stream: (answer: PlannedAnswer) => ReadonlyArray<Frame>;
  readonly response: (answer: PlannedAnswer) => HttpAnswer;
  readonly fail: (fail: PlannedFail) => HttpAnswer;
}

/** A message's content as SDKs send it: the text as a string, or a list of content blocks with a `blockType` block holding it. */
export const textContent = (text: TextMatch, blockType: string): unknown => ({ $anyOf: [text, { $some: { type: blockType, text } }] });

/** `stream: true` for a streamed request, absent for a whole one, and either when `stream` is undefined. */
export const streamField = (stream: boolean | undefined): Readonly<Record<string, unknown>> =>
  stream === undefined ? {} : { stream: stream ? true : { $absent: true } };

/** `model` in the body, unless any model is accepted. */
export const modelField = (model: string | undefined): Readonly<Record<string, unknown>> => (model === undefined ? {} : { model });

/** A body whose conversation, under `key`, ends with an item matching `item`, whatever comes before it. */
export const endsWith = (key: string, item: unknown): Readonly<Record<string, unknown>> => ({ [key]: { $last: item } });

/** `text` as a regular expression matching exactly it. */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
