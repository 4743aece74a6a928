import * as Result from "effect/Result";
import type { NewSessionProvider } from "../transcript/providers.ts";
import { paceField, pausesOf, type Description, type Turn } from "./description.ts";
import { DescriptionError } from "./errors.ts";
import type { Line, SessionLine, SessionStep, SessionTemplate, SessionTurn } from "./session-template.ts";
import type { PlannedCall } from "./template.ts";
import { outputTokens, tokenize } from "./tokenize.ts";

/** A turn's lines in order, each pause line after the delta of its step it names, checked against the deltas each step sends. */
const withPauses = (
  source: string,
  description: Description,
  lines: ReadonlyArray<SessionLine>,
): Result.Result<ReadonlyArray<Line>, DescriptionError> => {
  const pausesAt = (step: number) => {
    const turn: Turn | undefined = description.turns[step];
    return turn === undefined ? [] : pausesOf(turn);
  };
  for (const step of new Set(lines.map((line) => line.step))) {
    const deltas = lines.filter((line) => line.step === step && line.delta).length;
    const beyond = pausesAt(step).find((pause) => pause.after > deltas);
    if (beyond !== undefined) {
      return Result.fail(
        new DescriptionError({
          source,
          where: `turns[${step}].pause`,
          problem: `pause "${beyond.spec}" holds after delta ${beyond.after}, but this answer sends ${deltas} delta${deltas === 1 ? "" : "s"}`,
          fix: `Pick a number from 0 (after the app's message, before the answer's first) to ${deltas}`,
        }),
      );
    }
  }
  const pauseLines = (step: number, after: number) =>
    pausesAt(step)
      .filter((pause) => pause.after === after)
      .map((pause): Line => ({ type: "pause", name: pause.name }));
  const counts = new Map<number, number>();
  const out: Array<Line> = [];
  for (const { line, step, delta } of lines) {
    // A pause @0 holds after what the app sends, before the agent's first message of the step.
    if (line["type"] === "emit_inbound" && !counts.has(step)) {
      counts.set(step, 0);
      out.push(...pauseLines(step, 0));
    }
    out.push(line);
    if (delta) {
      const count = (counts.get(step) ?? 0) + 1;
      counts.set(step, count);
      out.push(...pauseLines(step, count));
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
    const output = outputTokens(turn, calls);
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
      ...paceField(description),
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
