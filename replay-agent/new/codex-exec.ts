import { codexId, codexToolProblem, commandOf } from "./codex-common.ts";
import { ids } from "./ids.ts";
import { emitMessage, type SessionLine, type SessionPlan, type SessionTemplate, type SessionTurn } from "./session-template.ts";

/**
 * `codex exec --experimental-json` as `@openai/codex-sdk` runs it: the prompt on stdin, then
 * thread.started, turn.started, each item whole (item.completed for reasoning and the
 * agent_message; item.started and item.completed for a command it runs) and turn.completed with
 * the usage. codex exec runs without asking for approval, so a tool call has no request to answer.
 */

/** `command` as codex exec shows a shell command: run by bash as a login shell. */
const shellCommand = (command: string): string => `/bin/bash -lc '${command.replaceAll("'", `'"'"'`)}'`;

const turnLines = (_session: SessionPlan, turn: SessionTurn): ReadonlyArray<SessionLine> => {
  const lines: Array<SessionLine> = [
    { line: { type: "expect_outbound", message: turn.user }, step: turn.first, delta: false },
    emitMessage(turn.first, { type: "thread.started", thread_id: codexId(`thread|${turn.seed}`) }),
    emitMessage(turn.first, { type: "turn.started" }),
  ];
  let item = 0;
  const nextId = () => `item_${item++}`;
  for (const [offset, step] of turn.steps.entries()) {
    const index = turn.first + offset;
    if (step.thinking !== undefined) {
      lines.push(emitMessage(index, { type: "item.completed", item: { id: nextId(), type: "reasoning", text: step.thinking } }, true));
    }
    if (step.text !== undefined) {
      lines.push(emitMessage(index, { type: "item.completed", item: { id: nextId(), type: "agent_message", text: step.text } }, true));
    }
    for (const call of step.calls) {
      const id = nextId();
      const command = shellCommand(commandOf(call.arguments));
      lines.push(
        emitMessage(
          index,
          { type: "item.started", item: { id, type: "command_execution", command, aggregated_output: "", status: "in_progress" } },
          true,
        ),
        emitMessage(
          index,
          {
            type: "item.completed",
            item: { id, type: "command_execution", command, aggregated_output: call.result ?? "", exit_code: 0, status: "completed" },
          },
          true,
        ),
      );
    }
  }
  lines.push(
    emitMessage(turn.first + turn.steps.length - 1, {
      type: "turn.completed",
      usage: {
        input_tokens: turn.usage.input,
        cached_input_tokens: 0,
        cache_write_input_tokens: 0,
        output_tokens: turn.usage.output,
        reasoning_output_tokens: turn.usage.thinking,
      },
    }),
  );
  return lines;
};

export const codexExecTemplate: SessionTemplate = {
  defaultModel: "gpt-5.1-codex",
  thinking: true,
  takesToolIds: false,
  oneTurn: true,
  toolProblem: codexToolProblem,
  toolId: ids.openaiCall,
  open: (session) => (session.asked === undefined ? [] : [{ type: "expect_outbound", spawn: { args: { $some: session.asked } } }]),
  turn: turnLines,
};
