import { TranscriptError } from "../errors.ts";
import { exchangesOf, type Exchange } from "../transcript/exchanges.ts";
import type { Cut, SseFrame } from "../transcript/schema.ts";
import { frameBytes, streamFrameOf, type StreamFrame, type StreamKind } from "../wire/stream-frame.ts";
import type { FramingCheck } from "./provider-format.ts";

/** What one streamed frame does to its stream: keeps it open, ends it (named, e.g. "[DONE]"), or breaks a rule. */
export type FrameVerdict =
  | { readonly kind: "open" }
  | { readonly kind: "end"; readonly name: string }
  | { readonly kind: "violation"; readonly problem: string; readonly fix: string };

export const stillOpen: FrameVerdict = { kind: "open" };
export const endsWith = (name: string): FrameVerdict => ({ kind: "end", name });
export const violation = (problem: string, fix: string): FrameVerdict => ({ kind: "violation", problem, fix });

/** One provider's stream rules: which frames it streams, a fresh frame checker per stream, and how a finished stream ends. */
export interface StreamRules {
  /** The kinds of frame the provider streams (default: sse). */
  readonly kinds?: ReadonlyArray<StreamKind>;
  /** The frames that end a stream, as messages name them, e.g. "[DONE]"; null when a stream simply ends with its answer. */
  readonly ending: string | null;
  /** A line that ends a stream (or one frame of it, when `ending` is null), quoted in fixes. */
  readonly endingExample: string;
  /** Starts checking one stream; the checker sees its frames in order, each of a kind in `kinds`. */
  readonly open: () => (frame: StreamFrame) => FrameVerdict;
}

/** A checker of sse frames alone, for rules whose `kinds` is sse. */
export const sseOnly =
  (open: () => (frame: SseFrame) => FrameVerdict): (() => (frame: StreamFrame) => FrameVerdict) =>
  () => {
    const check = open();
    return (frame) =>
      frame.kind === "sse" ? check(frame.sse) : violation(`a ${frame.kind} frame in an sse stream`, 'Write it as {"sse":{…}}');
  };

/** The field of an emit_inbound line that carries a frame of `kind`. */
const fieldOf = (kind: StreamKind): string => `"${kind}"`;

/** How a stream of `kind` carries an error that comes after its 200: one more frame of its own kind. */
const midStreamError: { readonly [K in StreamKind]: string } = {
  sse: "an sse frame",
  ndjson: "an ndjson line",
  eventstream: 'an eventstream message with ":message-type":"exception"',
};

/**
 * The framing check every HTTP provider shares: an answer is streamed frames of the provider's
 * kinds that end the way its `rules` say, one JSON response, or a fail; a disconnect may cut a
 * stream short, and a hold keeps it open.
 */
export const httpFraming =
  (rules: StreamRules): FramingCheck =>
  (transcript) => {
    for (const exchange of exchangesOf(transcript)) {
      const problem = checkExchange(transcript.file, rules, exchange);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };

const checkExchange = (file: string, rules: StreamRules, { request, answer }: Exchange): TranscriptError | undefined => {
  const error = (line: number, problem: string, fix: string) => new TranscriptError({ file, line, code: "framing", problem, fix });
  const checkFrame = rules.open();
  let stream: { readonly state: "none" } | { readonly state: "open" } | { readonly state: "ended"; readonly name: string } = {
    state: "none",
  };
  const kinds = rules.kinds ?? ["sse"];
  let streamKind: StreamKind | undefined;
  let complete: { readonly what: string; readonly line: number } | undefined;
  let lastFrame = request.line;
  let head: number | undefined;
  let joined: number | undefined;
  for (const entry of answer) {
    const frame = entry.type === "emit_inbound" ? streamFrameOf(entry) : undefined;
    const isFrame = frame !== undefined;
    if (joined !== undefined && !isFrame) {
      return error(
        joined,
        `"join" puts this frame in one write with the next frame, but line ${entry.line} is a ${entry.type}`,
        'Remove "join", or move the frame it joins right below it',
      );
    }
    joined = undefined;
    if (entry.type === "pause" || entry.type === "delay" || entry.type === "mark" || entry.type === "wait") continue;
    if (complete !== undefined) {
      return error(
        entry.line,
        `${entry.type} after the answer to line ${request.line} was complete (${complete.what} at line ${complete.line})`,
        "Start the next request with an expect_outbound line above it, or remove it",
      );
    }
    if (entry.type === "hold") {
      if (stream.state === "ended") {
        return error(
          entry.line,
          `hold after ${stream.name}: the stream has already ended`,
          `Remove the hold, or move it before ${stream.name} to keep the stream open`,
        );
      }
      complete = { what: "hold", line: entry.line };
    } else if (entry.type === "disconnect") {
      if (stream.state === "ended") {
        return error(
          entry.line,
          `disconnect after ${stream.name}: the stream has already ended`,
          `Remove the disconnect, or move it before ${stream.name}`,
        );
      }
      complete = { what: "disconnect", line: entry.line };
    } else if (entry.type === "emit_inbound" && entry.head !== undefined) {
      if (stream.state !== "none" || head !== undefined) {
        const before = head !== undefined ? `the head at line ${head}` : `${streamKind ?? "sse"} frames`;
        return error(
          entry.line,
          `a head after ${before}: the status and headers go out once, before the first frame`,
          "Keep one head line, right below the expect_outbound it answers",
        );
      }
      head = entry.line;
    } else if (entry.type === "fail") {
      if (head !== undefined) {
        return error(
          entry.line,
          `fail after the head at line ${head}: the stream's status was already sent`,
          "Put the error status in the head line, or remove the head and keep the fail",
        );
      }
      if (stream.state !== "none") {
        return error(
          entry.line,
          `fail after ${streamKind ?? "sse"} frames: the stream's 200 status was already sent`,
          `Record a mid-stream error as ${midStreamError[streamKind ?? "sse"]}, the way the provider streams it, or move the fail above the stream`,
        );
      }
      complete = { what: "fail", line: entry.line };
    } else if (entry.type === "emit_inbound" && entry.response !== undefined) {
      if (stream.state !== "none" || head !== undefined) {
        return error(
          entry.line,
          `a whole JSON response after ${streamKind ?? "sse"} frames`,
          "Answer a request with streamed frames or with one response, not both",
        );
      }
      complete = { what: "response", line: entry.line };
    } else if (entry.type === "emit_inbound" && frame !== undefined) {
      if (!kinds.includes(frame.kind)) {
        return error(
          entry.line,
          `a ${frame.kind} frame, but this provider streams ${kinds.join(" or ")}`,
          `Write the provider's frames as ${kinds.map(fieldOf).join(" or ")} lines, like ${rules.endingExample}`,
        );
      }
      if (streamKind !== undefined && frame.kind !== streamKind) {
        return error(
          entry.line,
          `a ${frame.kind} frame in a stream of ${streamKind} frames: one answer streams one kind of frame`,
          `Write it as a ${fieldOf(streamKind)} frame, or answer it under its own expect_outbound`,
        );
      }
      streamKind = frame.kind;
      if (stream.state === "ended") {
        return error(
          entry.line,
          `${frame.kind} frame after ${stream.name} (line ${lastFrame})`,
          "Remove it, or start the next request with an expect_outbound line above it",
        );
      }
      const verdict = checkFrame(frame);
      if (verdict.kind === "violation") return error(entry.line, verdict.problem, verdict.fix);
      const badCut = cutProblem(entry.cut ?? [], frameBytes(frame).length);
      if (badCut !== undefined)
        return error(
          entry.line,
          badCut,
          frame.kind === "sse"
            ? "Cut at byte offsets that increase, each inside the frame as written (its event: and data: lines and the blank line)"
            : frame.kind === "ndjson"
              ? "Cut at byte offsets that increase, each inside the line as written (its compact JSON and the newline)"
              : "Cut at byte offsets that increase, each inside the binary message as written (prelude, headers, payload and CRCs)",
        );
      if (entry.join === true) joined = entry.line;
      stream = verdict.kind === "end" ? { state: "ended", name: verdict.name } : { state: "open" };
      lastFrame = entry.line;
    }
  }
  if (joined !== undefined) {
    return error(joined, '"join" on the last frame of an answer: there is no next frame to share its write', 'Remove "join"');
  }
  if (head !== undefined && stream.state === "none" && complete === undefined) {
    return error(
      head,
      `a head with no ${kinds.join(" or ")} frames after it`,
      `Add the stream's frames, ending with ${rules.endingExample}, or answer with one emit_inbound response instead`,
    );
  }
  if (stream.state === "open" && complete === undefined && rules.ending !== null) {
    return error(
      lastFrame,
      `the stream answering line ${request.line} ends without ${rules.ending}`,
      `End it with ${rules.endingExample}, or add {"type":"disconnect"} to drop the connection mid-stream`,
    );
  }
  if (stream.state === "none" && complete === undefined) {
    return error(
      request.line,
      "this request has no answer",
      rules.ending === null
        ? `Add emit_inbound frames like ${rules.endingExample}, an emit_inbound response, a fail or a disconnect below it`
        : `Add emit_inbound ${kinds.join(" or ")} frames ending with ${rules.endingExample}, an emit_inbound response, a fail or a disconnect below it`,
    );
  }
  return undefined;
};

/** Why a frame's cuts cannot be made: an offset outside the frame's `length` bytes, or not after the one before. */
const cutProblem = (cuts: ReadonlyArray<Cut>, length: number): string | undefined => {
  let previous = 0;
  for (const cut of cuts) {
    const at = typeof cut === "number" ? cut : cut.at;
    if (at < 1 || at >= length)
      return `a cut at byte ${at}, outside this frame: it is ${length} bytes as written, so a cut falls from 1 to ${length - 1}`;
    if (at <= previous) return `a cut at byte ${at} after one at ${previous}: cuts go in increasing order`;
    previous = at;
  }
  return undefined;
};
