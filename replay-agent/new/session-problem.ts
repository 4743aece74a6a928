import type { Description } from "./description.ts";
import { DescriptionError } from "./errors.ts";
import type { SessionTemplate } from "./session-template.ts";

/** What a description of a message-based profile cannot hold, as an error naming the field; undefined when it can be written. */
export const sessionProblem = (source: string, description: Description, template: SessionTemplate): DescriptionError | undefined => {
  const problem = (where: string, text: string, fix: string) => new DescriptionError({ source, where, problem: text, fix });
  const { provider } = description;
  if (description.model !== undefined && template.defaultModel === undefined) {
    return problem("model", `${provider} names no model: nothing the app sends carries one`, 'Remove "model"');
  }
  if (description.background !== undefined) {
    return problem(
      "background",
      `${provider} is one session of messages: there are no requests beside it to answer in a lane of their own`,
      'Remove "background"',
    );
  }
  for (const [index, turn] of description.turns.entries()) {
    const where = `turns[${index}]`;
    const unsupported = (["fail", "stream", "cut"] as const).find((key) => turn[key] !== undefined);
    if (unsupported !== undefined) {
      const flag = { fail: "--fail", stream: "--no-stream", cut: "--cut" }[unsupported];
      return problem(
        `${where}.${unsupported}`,
        `replay-agent new writes no "${unsupported}" (${flag}) for ${provider}: its agent answers with messages, not HTTP statuses, whole responses or frames to cut`,
        `Remove "${unsupported}"; a pause holds the answer after any of its messages`,
      );
    }
    for (const [call, tool] of (turn.tools ?? []).entries()) {
      const wrong = template.toolProblem({ name: tool.name, arguments: tool.arguments ?? {} });
      if (wrong !== undefined) return problem(`${where}.tools[${call}]`, wrong.problem, wrong.fix);
    }
  }
  const users = description.turns.filter((turn) => turn.user !== undefined).length;
  if (template.oneTurn && users > 1) {
    return problem(
      "turns",
      `${provider} runs one prompt a process, and this description has ${users}`,
      "Describe each run in a file of its own",
    );
  }
  return undefined;
};
