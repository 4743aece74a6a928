import * as Result from "effect/Result";
import type { NewHttpProvider } from "../transcript/providers.ts";
import { frameBytes, type StreamFrame } from "../wire/stream-frame.ts";
import { paceField, pausesOf, type Background, type Description, type Turn } from "./description.ts";
import { DescriptionError } from "./errors.ts";
import type { Frame, HttpAnswer, PlannedAnswer, PlannedCall, ProviderTemplate } from "./template.ts";
import { opencodeLines } from "./opencode.ts";
import { isSessionProvider, providerTemplates, sessionTemplates } from "./templates.ts";
import { sessionLines } from "./write-session.ts";
import { outputTokens, tokenize } from "./tokenize.ts";

type Line = Readonly<Record<string, unknown>>;

/** The emit_inbound field that carries a streamed frame of each kind. */
const frameField = (frame: StreamFrame): Line => {
  switch (frame.kind) {
    case "sse":
      return { sse: frame.sse };
    case "ndjson":
      return { ndjson: frame.value };
    case "eventstream":
      return { eventstream: frame.frame };
  }
};

/** An answer's status, headers (when it has any) and body, as a response or fail line holds them. */
const answerFields = (answer: HttpAnswer): Line => ({
  status: answer.status,
  ...(Object.keys(answer.headers).length === 0 ? {} : { headers: answer.headers }),
  body: answer.body,
});

const isStreamedFrameLine = (line: Line | undefined): boolean =>
  line?.["type"] === "emit_inbound" && ["sse", "ndjson", "eventstream"].some((field) => Object.hasOwn(line, field));

/**
 * The answer's frames, with each pause line after the delta it names, and each cut pause inside
 * the delta it names: the frame cut in its middle with the pause between the pieces, and joined to
 * the frame before it (when no pause line is between them), so one write ends inside the frame.
 */
const withPauses = (
  source: string,
  where: string,
  turn: Turn,
  head: Line | undefined,
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
  const lines: Array<Line> = [...pauseLines(0), ...(head === undefined ? [] : [head])];
  let count = 0;
  for (const { frame, delta } of frames) {
    const cut = delta ? cuts.filter((candidate) => candidate.after === count + 1) : [];
    const previous = lines.at(-1);
    if (cut.length > 0 && previous !== undefined && isStreamedFrameLine(previous)) lines[lines.length - 1] = { ...previous, join: true };
    const middle = Math.floor(frameBytes(frame).length / 2);
    lines.push({
      type: "emit_inbound",
      ...frameField(frame),
      ...(cut.length === 0 ? {} : { cut: cut.map(({ name }, index) => ({ at: middle + index, pause: name })) }),
    });
    if (delta) lines.push(...pauseLines(++count));
  }
  return Result.succeed(lines);
};

const backgroundLines =
  (description: Description, template: ProviderTemplate, model: string) =>
  (background: Background, index: number): ReadonlyArray<Line> => {
    const seed = `${description.provider}|${model}|background[${index}]|${JSON.stringify(background)}`;
    const request = template.request({ model: background.model, stream: false, usageChunk: false, thinking: false });
    const body = { ...request.body, ...(background.user === undefined ? {} : template.userTurn({ $contains: background.user })) };
    const answer: PlannedAnswer = {
      seed,
      model: template.answerModel(background.model ?? model),
      thinking: undefined,
      text: background.reply,
      calls: [],
      usage: { input: 24 + tokenize(background.user ?? "").length, output: tokenize(background.reply).length, thinking: 0 },
      usageChunk: false,
    };
    return [
      {
        type: "expect_outbound",
        lane: background.lane,
        ...(background.optional === false ? {} : { optional: true }),
        times: background.times ?? "any",
        request: { method: "POST", path: request.path, body },
      },
      { type: "emit_inbound", response: answerFields(template.response(answer)) },
    ];
  };

/** A transcript line by line: meta, each turn's expectation and answer, then the background lanes. */
const transcriptLines = (
  source: string,
  description: Description & { readonly provider: NewHttpProvider },
): Result.Result<ReadonlyArray<Line>, DescriptionError> => {
  const template = providerTemplates[description.provider];
  const model = description.model ?? template.defaultModel(description.turns.some((turn) => turn.thinking !== undefined));
  const usageChunk = description.provider === "openai-chat" && description.usage !== false;
  const lines: Array<Line> = [
    {
      type: "meta",
      format: "replay-transcript",
      version: 1,
      provider: description.provider,
      model,
      source: "handwritten",
      ...paceField(description),
    },
  ];
  let previousCalls: ReadonlyArray<PlannedCall> = [];
  let input = 0;
  for (const [index, turn] of description.turns.entries()) {
    const where = `turns[${index}]`;
    const seed = `${description.provider}|${model}|${where}|${JSON.stringify(turn)}`;
    const streamed = turn.stream !== false;
    const answered = turn.fail === undefined;
    const request = template.request({
      model,
      stream: !answered && turn.stream === undefined ? undefined : streamed,
      usageChunk: streamed && answered && usageChunk,
      thinking: answered && turn.thinking !== undefined,
    });
    const body = {
      ...request.body,
      ...(turn.user === undefined ? template.toolResultTurn(previousCalls) : template.userTurn(turn.user)),
    };
    lines.push({ type: "expect_outbound", request: { method: "POST", path: request.path, body } });
    input += 12 + tokenize(turn.user ?? "").length + previousCalls.reduce((sum, call) => sum + 8 + tokenize(call.result ?? "").length, 0);
    if (turn.fail !== undefined) {
      const fail = typeof turn.fail === "number" ? { status: turn.fail } : turn.fail;
      const answer = template.fail({ seed, model, status: fail.status, message: fail.message, retryAfter: fail.retryAfter });
      lines.push({ type: "fail", ...answerFields(answer) });
      previousCalls = [];
      continue;
    }
    const calls = (turn.tools ?? []).map((tool, call): PlannedCall => ({
      id: tool.id ?? template.toolId?.(`${seed}|${call}`, tool.name),
      name: tool.name,
      arguments: tool.arguments ?? {},
      result: tool.result,
    }));
    const thinking = tokenize(turn.thinking ?? "").length;
    const usage = turn.usage === undefined ? { input, output: outputTokens(turn, calls), thinking } : { ...turn.usage, thinking };
    const answer: PlannedAnswer = {
      seed,
      model: template.answerModel(model),
      thinking: turn.thinking,
      text: turn.reply,
      calls,
      usage,
      usageChunk,
    };
    if (streamed) {
      const headers = template.streamHeaders?.(seed);
      const head = headers === undefined ? undefined : { type: "emit_inbound", head: { status: 200, headers } };
      const streamLines = withPauses(source, where, turn, head, template.stream(answer));
      if (Result.isFailure(streamLines)) return streamLines;
      lines.push(...streamLines.success);
    } else {
      // A whole answer holds only before it (description.ts refuses any other pause).
      const held = pausesOf(turn).map((pause): Line => ({ type: "pause", name: pause.name }));
      lines.push(...held, { type: "emit_inbound", response: answerFields(template.response(answer)) });
    }
    input += usage.output;
    previousCalls = calls;
  }
  lines.push(...(description.background ?? []).flatMap(backgroundLines(description, template, model)));
  return Result.succeed(lines);
};

/** `description` as transcript text, its first line a comment naming `command`, the command that wrote it. */
export const writeTranscript = (source: string, description: Description, command: string): Result.Result<string, DescriptionError> =>
  Result.map(
    description.provider === "opencode"
      ? opencodeLines(source, description, (turn, where, frames) => withPauses(source, where, turn, undefined, frames))
      : isSessionProvider(description.provider)
        ? sessionLines(source, { ...description, provider: description.provider }, sessionTemplates[description.provider])
        : transcriptLines(source, { ...description, provider: description.provider }),
    (lines) => [`// Written by: ${command}`, ...lines.map((line) => JSON.stringify(line))].join("\n") + "\n",
  );
