import * as Result from "effect/Result";
import type { NewSessionProvider } from "../transcript/providers.ts";
import { pausesOf, type Description, type Turn } from "./description.ts";
import { DescriptionError } from "./errors.ts";
import type { Line, SessionLine, SessionStep, SessionTemplate, SessionTurn } from "./session-template.ts";
import type { PlannedCall } from "./template.ts";
import { tokenize } from "./tokenize.ts";

/** A turn's steps with each line's pause lines after the delta it names, checked against the deltas each step streams. */
const withPauses = (
  source: string,
  description: Description,
  lines: ReadonlyArray<SessionLine>,
): Result.Result<ReadonlyArray<Line>, DescriptionError> => {
  const steps = [...new Set(lines.map((line) => line.step))];
  const out: Array<Line> = [];
  for (const step of steps) {
    const turn: Turn | undefined = description.turns[step];
    const stepLines = lines.filter((line) => line.step === step);
    const pauses = turn === undefined ? [] : pausesOf(turn);
    const deltas = stepLines.filter((line) => line.delta).length;
    const beyond = pauses.find((pause) => pause.after > deltas);
    if (beyond !== undefined) {
      return Result.fail(
        new DescriptionError({
          source,
          where: `turns[${step}].pause`,
          problem: `pause "${beyond.spec}" holds after delta ${beyond.after}, but this answer sends ${deltas} delta${deltas === 1 ? "" : "s"}`,
          fix: `Pick a number from 0 (before the first message of the answer) to ${deltas}`,
        }),
      );
    }
    const pauseLines = (after: number) =>
      pauses.filter((pause) => pause.after === after).map((pause): Line => ({ type: "pause", name: pause.name }));
    // A pause before the answer holds after what the app sends, before the agent's first message.
    const firstEmit = stepLines.findIndex((line) => line.line["type"] === "emit_inbound");
    let count = 0;
    for (const [index, { line, delta }] of stepLines.entries()) {
      if (index === firstEmit) out.push(...pauseLines(0));
      out.push(line);
      if (delta) out.push(...pauseLines(++count));
    }
  }
  return Result.succeed(out);
};

/** The description's turns grouped into the session's turns: one for each user message, with the steps that follow its tool calls. */
const sessionTurns = (description: Description, template: SessionTemplate, model: string): ReadonlyArray<SessionTurn> => {
  const turns: Array<SessionTurn> = [];
  let input = 0;
  for (const [index, turn] of description.turns.entries()) {
    const seed = `${description.provider}|${model}|turns[${index}]|${JSON.stringify(turn)}`;
    const calls = (turn.tools ?? []).map((tool, call): PlannedCall => ({
      id: tool.id ?? template.toolId(`${seed}|${call}`, tool.name),
      name: tool.name,
      arguments: tool.arguments ?? {},
      result: tool.result,
    }));
    const step: SessionStep = { thinking: turn.thinking, text: turn.reply, calls };
    const thinking = tokenize(turn.thinking ?? "").length;
    const output =
      thinking +
      tokenize(turn.reply ?? "").length +
      calls.reduce((sum, call) => sum + 4 + tokenize(JSON.stringify(call.arguments)).length, 0);
    input += 12 + tokenize(turn.user ?? "").length;
    const usage = turn.usage ?? { input, output };
    const previous = turns.at(-1);
    if (turn.user === undefined && previous !== undefined) {
      turns[turns.length - 1] = {
        ...previous,
        steps: [...previous.steps, step],
        usage: {
          input: previous.usage.input + usage.input,
          output: previous.usage.output + usage.output,
          thinking: previous.usage.thinking + thinking,
        },
      };
    } else {
      turns.push({
        seed,
        index: turns.length,
        user: turn.user ?? "",
        first: index,
        previous: turns.at(-1),
        steps: [step],
        usage: { input: usage.input, output: usage.output, thinking },
      });
    }
    input += output;
  }
  return turns;
};

/** A session transcript line by line: meta, the session's opening, then each turn. */
export const sessionLines = (
  source: string,
  description: Description & { readonly provider: NewSessionProvider },
  template: SessionTemplate,
): Result.Result<ReadonlyArray<Line>, DescriptionError> => {
  const model = description.model ?? template.defaultModel;
  const session = { seed: `${description.provider}|${model ?? ""}`, asked: description.model, model: model ?? "" };
  const lines: Array<Line> = [
    {
      type: "meta",
      format: "replay-transcript",
      version: 1,
      provider: description.provider,
      ...(model === undefined ? {} : { model }),
      source: "handwritten",
    },
    ...template.open(session),
  ];
  for (const turn of sessionTurns(description, template, session.model)) {
    const turnLines = withPauses(source, description, template.turn(session, turn));
    if (Result.isFailure(turnLines)) return turnLines;
    lines.push(...turnLines.success);
  }
  return Result.succeed(lines);
};
