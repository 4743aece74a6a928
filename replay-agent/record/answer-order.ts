import type { StdioRecordingRules } from "./stdio-rules.ts";
import type { RecordedLine } from "./transcript-file.ts";

interface Held {
  readonly line: RecordedLine;
  readonly awaits: string | undefined;
  answer: ReadonlyArray<RecordedLine> | undefined;
}

/**
 * Appends the lines of a stdio recording in the order they came, but for an answer `rules` say
 * must be played in the answer of the app's message it answers: once the app has written such a
 * message, the app's later messages are held back (they have reached the agent; only their lines
 * wait) until the agent's answer to it has been appended, so that answer lands right after it.
 * What the agent writes meanwhile is appended at once, in the awaited message's answer. An agent's
 * line comes with the lines that go before it (its delay line), kept together wherever it lands.
 */
export const answerOrder = (rules: StdioRecordingRules, append: (line: RecordedLine) => void) => {
  let open: string | undefined;
  const held: Array<Held> = [];
  const drain = () => {
    for (let next = held.shift(); next !== undefined; next = open === undefined ? held.shift() : undefined) {
      append(next.line);
      if (next.answer !== undefined) next.answer.forEach(append);
      else open = next.awaits;
    }
  };
  return {
    fromApp: (message: unknown, line: RecordedLine) => {
      held.push({ line, awaits: rules.awaits(message), answer: undefined });
      if (open === undefined) drain();
    },
    fromAgent: (message: unknown, lines: ReadonlyArray<RecordedLine>) => {
      const id = rules.answers(message);
      if (id !== undefined && id === open) {
        lines.forEach(append);
        open = undefined;
        drain();
        return;
      }
      const awaiting = id === undefined ? undefined : held.find((item) => item.awaits === id && item.answer === undefined);
      if (awaiting === undefined) lines.forEach(append);
      else awaiting.answer = lines;
    },
    /** Appends what is still held back, once the agent has exited: its answers will not come. */
    flush: () => {
      for (const item of held.splice(0)) {
        append(item.line);
        item.answer?.forEach(append);
      }
      open = undefined;
    },
  };
};
