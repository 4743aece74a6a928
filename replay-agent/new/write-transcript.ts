import * as Result from "effect/Result";
import type { NewProvider } from "../transcript/providers.ts";
import { anthropicMessagesFrames } from "./anthropic-messages.ts";
import { pausesOf, type Background, type Description, type Turn } from "./description.ts";
import { DescriptionError } from "./errors.ts";
import type { Frame, PlannedAnswer, PlannedCall, ProviderFrames } from "./frames.ts";
import { openaiChatFrames } from "./openai-chat.ts";
import { openaiResponsesFrames } from "./openai-responses.ts";
import { tokenize } from "./tokenize.ts";
import { sseFrameText } from "../wire/sse.ts";

/** Every HTTP provider's frame shapes; typed exhaustively so a new provider must have its own. */
export const providerFrames: { readonly [P in NewProvider]: ProviderFrames } = {
  "openai-chat": openaiChatFrames,
  "openai-responses": openaiResponsesFrames,
  "anthropic-messages": anthropicMessagesFrames,
};

type Line = Readonly<Record<string, unknown>>;

/** A made-up but plausible token count for a turn's answer: one per delta it streams. */
const outputTokens = (turn: Turn, calls: ReadonlyArray<PlannedCall>): number =>
  tokenize(turn.reply ?? "").length + calls.reduce((sum, call) => sum + 4 + tokenize(JSON.stringify(call.arguments)).length, 0);

/**
 * The answer's frames, with each pause line after the delta it names, and each cut pause inside
 * the delta it names: the frame cut in its middle with the pause between the pieces, and joined to
 * the frame before it (when no pause line is between them), so one write ends inside the event.
 */
const withPauses = (
  source: string,
  where: string,
  turn: Turn,
  head: Line,
  frames: ReadonlyArray<Frame>,
): Result.Result<ReadonlyArray<Line>, DescriptionError> => {
  const pauses = pausesOf(turn);
  const cuts = pausesOf(turn, "cut");
  const deltas = frames.filter((frame) => frame.delta).length;
  const outside = cuts.find((cut) => cut.after < 1 || cut.after > deltas);
  if (outside !== undefined) {
    return Result.fail(
      new DescriptionError({
        source,
        where: `${where}.cut`,
        problem: `cut "${outside.spec}" cuts delta ${outside.after}, but this answer streams ${deltas} delta${deltas === 1 ? "" : "s"}`,
        fix: `Pick a number from 1 (the first delta) to ${deltas}`,
      }),
    );
  }
  const beyond = pauses.find((pause) => pause.after > deltas);
  if (beyond !== undefined) {
    return Result.fail(
      new DescriptionError({
        source,
        where: `${where}.pause`,
        problem: `pause "${beyond.spec}" holds after delta ${beyond.after}, but this answer streams ${deltas} delta${deltas === 1 ? "" : "s"}`,
        fix: `Pick a number from 0 (before the first frame) to ${deltas}`,
      }),
    );
  }
  const pauseLines = (after: number) =>
    pauses.filter((pause) => pause.after === after).map((pause): Line => ({ type: "pause", name: pause.name }));
  const lines: Array<Line> = [...pauseLines(0), head];
  let count = 0;
  for (const frame of frames) {
    const cut = frame.delta ? cuts.filter((candidate) => candidate.after === count + 1) : [];
    const previous = lines.at(-1);
    if (cut.length > 0 && previous?.["type"] === "emit_inbound" && previous["sse"] !== undefined)
      lines[lines.length - 1] = { ...previous, join: true };
    const middle = Math.floor(Buffer.byteLength(sseFrameText(frame.sse), "utf8") / 2);
    lines.push({
      type: "emit_inbound",
      sse: frame.sse,
      ...(cut.length === 0 ? {} : { cut: cut.map(({ name }, index) => ({ at: middle + index, pause: name })) }),
    });
    if (frame.delta) lines.push(...pauseLines(++count));
  }
  return Result.succeed(lines);
};

const backgroundLines =
  (description: Description, frames: ProviderFrames, model: string) =>
  (background: Background, index: number): ReadonlyArray<Line> => {
    const seed = `${description.provider}|${model}|background[${index}]|${JSON.stringify(background)}`;
    const body = {
      ...(background.model === undefined ? {} : { model: background.model }),
      stream: { $absent: true },
      ...(background.user === undefined
        ? {}
        : { [frames.conversation]: { $last: { role: "user", content: { $contains: background.user } } } }),
    };
    const answer: PlannedAnswer = {
      seed,
      model: frames.answerModel(background.model ?? model),
      text: background.reply,
      calls: [],
      usage: { input: 24 + tokenize(background.user ?? "").length, output: tokenize(background.reply).length },
      usageChunk: false,
    };
    return [
      {
        type: "expect_outbound",
        lane: background.lane,
        ...(background.optional === false ? {} : { optional: true }),
        times: background.times ?? "any",
        request: { method: "POST", path: frames.path, body },
      },
      { type: "emit_inbound", response: frames.response(answer) },
    ];
  };

/** A transcript line by line: meta, each turn's expectation and answer, then the background lanes. */
const transcriptLines = (source: string, description: Description): Result.Result<ReadonlyArray<Line>, DescriptionError> => {
  const frames = providerFrames[description.provider];
  const model = description.model ?? frames.defaultModel;
  const usageChunk = description.provider === "openai-chat" && description.usage !== false;
  const lines: Array<Line> = [
    { type: "meta", format: "replay-transcript", version: 1, provider: description.provider, model, source: "handwritten" },
  ];
  let previousCalls: ReadonlyArray<PlannedCall> = [];
  let input = 0;
  for (const [index, turn] of description.turns.entries()) {
    const where = `turns[${index}]`;
    const seed = `${description.provider}|${model}|${where}|${JSON.stringify(turn)}`;
    const streamed = turn.stream !== false;
    const last = turn.user === undefined ? frames.toolResultItem(previousCalls) : frames.userItem(turn.user);
    const stream = turn.fail !== undefined && turn.stream === undefined ? {} : { stream: streamed ? true : { $absent: true } };
    const body = {
      model,
      ...stream,
      ...(streamed && turn.fail === undefined ? frames.streamFields(usageChunk) : {}),
      [frames.conversation]: { $last: last },
    };
    lines.push({ type: "expect_outbound", request: { method: "POST", path: frames.path, body } });
    input += 12 + tokenize(turn.user ?? "").length + previousCalls.reduce((sum, call) => sum + 8 + tokenize(call.result ?? "").length, 0);
    if (turn.fail !== undefined) {
      const fail = typeof turn.fail === "number" ? { status: turn.fail } : turn.fail;
      const answer = frames.fail({ seed, model, status: fail.status, message: fail.message, retryAfter: fail.retryAfter });
      lines.push({ type: "fail", status: answer.status, headers: answer.headers, body: answer.body });
      previousCalls = [];
      continue;
    }
    const calls = (turn.tools ?? []).map((tool, call): PlannedCall => ({
      id: tool.id ?? frames.toolId(`${seed}|${call}`),
      name: tool.name,
      arguments: tool.arguments ?? {},
      result: tool.result,
    }));
    const usage = turn.usage ?? { input, output: outputTokens(turn, calls) };
    const answer: PlannedAnswer = { seed, model: frames.answerModel(model), text: turn.reply, calls, usage, usageChunk };
    if (streamed) {
      const head = { type: "emit_inbound", head: { status: 200, headers: frames.streamHeaders(seed) } };
      const streamLines = withPauses(source, where, turn, head, frames.stream(answer));
      if (Result.isFailure(streamLines)) return streamLines;
      lines.push(...streamLines.success);
    } else {
      lines.push({ type: "emit_inbound", response: frames.response(answer) });
    }
    input += usage.output;
    previousCalls = calls;
  }
  lines.push(...(description.background ?? []).flatMap(backgroundLines(description, frames, model)));
  return Result.succeed(lines);
};

/** `description` as transcript text, its first line a comment naming `command`, the command that wrote it. */
export const writeTranscript = (source: string, description: Description, command: string): Result.Result<string, DescriptionError> =>
  Result.map(
    transcriptLines(source, description),
    (lines) => [`// Written by: ${command}`, ...lines.map((line) => JSON.stringify(line))].join("\n") + "\n",
  );
