import type { Wait } from "./schema.ts";
import type { Located, Transcript, TranscriptEntry } from "./transcript.ts";

/** What is wrong with the order of a transcript's marks, waits and holds: the line, the problem and the fix. */
export interface OrderProblem {
  readonly line: number;
  readonly problem: string;
  readonly fix: string;
}

/** Lines that play one after another: the opening (before the first expect_outbound), or one lane's answers in file order. */
interface Sequence {
  /** How messages name it: `the lines before the first expect_outbound`, `lane "events"`, … */
  readonly name: string;
  readonly lines: ReadonlyArray<TranscriptEntry>;
}

/** The opening, then each lane's answer lines in file order, the way the runtime plays them (a lane's answers one after another, after the opening). */
const sequencesOf = (transcript: Transcript): { readonly opening: Sequence; readonly lanes: ReadonlyArray<Sequence> } => {
  const opening: Array<TranscriptEntry> = [];
  const lanes = new Map<string, { name: string; lines: Array<TranscriptEntry> }>();
  let current = opening;
  for (const entry of transcript.entries) {
    if (entry.type === "expect_outbound") {
      const key = entry.unordered === true ? `line ${entry.line}` : (entry.lane ?? "main");
      const name = entry.unordered === true ? `the unordered exchange at line ${entry.line}` : `lane "${entry.lane ?? "main"}"`;
      const lane = lanes.get(key) ?? { name, lines: [] };
      lanes.set(key, lane);
      current = lane.lines;
    } else {
      current.push(entry);
    }
  }
  return { opening: { name: "the lines before the first expect_outbound", lines: opening }, lanes: [...lanes.values()] };
};

/** The first line after a hold in its answer: a held answer plays nothing more. */
const afterHold = (transcript: Transcript): OrderProblem | undefined => {
  let hold: number | undefined;
  for (const entry of transcript.entries) {
    if (entry.type === "expect_outbound") hold = undefined;
    else if (hold !== undefined) {
      return {
        line: entry.line,
        problem: `${entry.type} after the hold at line ${hold}: a held answer stays open and plays nothing more`,
        fix: "Move the hold to the end of its answer, or start the next request with an expect_outbound line above this one",
      };
    } else if (entry.type === "hold") hold = entry.line;
  }
  return undefined;
};

/** Where each sequence is stuck: at a wait whose mark no line that played has set. */
interface Played {
  readonly stuckAt: (sequence: Sequence) => Located<Wait> | undefined;
  readonly openingDone: boolean;
}

/** Plays every sequence as far as it can, assuming each request comes whenever it may and every pause is resumed. */
const playAll = (opening: Sequence, lanes: ReadonlyArray<Sequence>): Played => {
  const reached = new Set<string>();
  const positions = new Map<Sequence, number>();
  const advance = (sequence: Sequence): boolean => {
    const start = positions.get(sequence) ?? 0;
    let at = start;
    for (let line = sequence.lines[at]; line !== undefined; line = sequence.lines[at]) {
      if (line.type === "wait" && !reached.has(line.for)) break;
      if (line.type === "mark") reached.add(line.name);
      at++;
    }
    positions.set(sequence, at);
    return at > start;
  };
  const openingDone = () => (positions.get(opening) ?? 0) >= opening.lines.length;
  for (let moved = true; moved;) {
    moved = advance(opening);
    if (openingDone()) for (const lane of lanes) moved = advance(lane) || moved;
  }
  return {
    stuckAt: (sequence) => {
      const line = sequence.lines[positions.get(sequence) ?? 0];
      return line?.type === "wait" ? line : undefined;
    },
    openingDone: openingDone(),
  };
};

/** Why `wait` (where `sequence` is stuck) never passes: no line sets its mark, or each line that does plays only after a wait that never passes. */
const stuckWait = (
  transcript: Transcript,
  { opening, lanes }: ReturnType<typeof sequencesOf>,
  played: Played,
  stuck: { readonly wait: Located<Wait>; readonly sequence: Sequence },
): OrderProblem => {
  const { wait } = stuck;
  const setters = [opening, ...lanes].flatMap((sequence) =>
    sequence.lines.flatMap((line) => (line.type === "mark" && line.name === wait.for ? [{ line, sequence }] : [])),
  );
  if (setters.length === 0) {
    const marks = [...new Map(transcript.entries.flatMap((entry) => (entry.type === "mark" ? [[entry.name, entry.line] as const] : [])))];
    return {
      line: wait.line,
      problem: `wait for mark "${wait.for}", but no line of the transcript sets that mark`,
      fix:
        marks.length === 0
          ? `Add {"type":"mark","name":"${wait.for}"} where the wait may go on (in another lane, or above the wait in its own answer)`
          : `Add {"type":"mark","name":"${wait.for}"} where the wait may go on, or wait for a mark the transcript sets: ${marks.map(([name, line]) => `"${name}" (line ${line})`).join(", ")}`,
    };
  }
  const reasons = setters.map(({ line, sequence }) => {
    if (sequence === stuck.sequence)
      return `line ${line.line} sets it, but comes after this wait in ${sequence.name}, whose lines play one after another`;
    if (!played.openingDone) return `line ${line.line} sets it, but every answer plays after ${opening.name}, and this wait is one of them`;
    const blocker = played.stuckAt(sequence);
    return blocker === undefined
      ? `line ${line.line} sets it`
      : `line ${line.line} sets it, but ${sequence.name} never gets past line ${blocker.line} (wait for "${blocker.for}")`;
  });
  return {
    line: wait.line,
    problem: `wait for mark "${wait.for}" never passes: ${reasons.join("; ")}`,
    fix: 'Set the mark where it plays before this wait: in another lane ("lane" on the expect_outbound), or above the wait in its own answer',
  };
};

/**
 * The first problem with the order of marks, waits and holds that can be known from the file: a
 * line after a hold in its answer, or a wait that can never pass because no line sets its mark,
 * or every line that does plays only after it.
 */
export const orderProblem = (transcript: Transcript): OrderProblem | undefined => {
  const held = afterHold(transcript);
  if (held !== undefined) return held;
  const sequences = sequencesOf(transcript);
  const played = playAll(sequences.opening, sequences.lanes);
  const [first] = (played.openingDone ? sequences.lanes : [sequences.opening])
    .flatMap((sequence) => {
      const wait = played.stuckAt(sequence);
      return wait === undefined ? [] : [{ wait, sequence }];
    })
    .sort((a, b) => a.wait.line - b.wait.line);
  return first === undefined ? undefined : stuckWait(transcript, sequences, played, first);
};
