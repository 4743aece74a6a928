import type { RecordedLine } from "./transcript-file.ts";

/** A recorded line and when it happened: the recorder's count of what it saw, across every exchange. */
export interface StampedLine {
  readonly stamp: number;
  readonly line: RecordedLine;
}

/** One exchange of a recording: its lane, and its lines from its expect_outbound on, their stamps rising. */
export interface LaneBlock {
  readonly lane: string;
  readonly lines: ReadonlyArray<StampedLine>;
}

/** The index of the last of `slots` (stamps rising) stamped before `stamp`; -1 when none is. */
const lastBefore = (slots: ReadonlyArray<StampedLine>, stamp: number): number => {
  let low = 0;
  let high = slots.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((slots[middle]?.stamp ?? Infinity) < stamp) low = middle + 1;
    else high = middle;
  }
  return low - 1;
};

/** A frame's line without its `join`. */
const withoutJoin = (line: RecordedLine): RecordedLine =>
  Object.fromEntries(Object.entries(line).filter(([field]) => field !== "join")) as RecordedLine;

/**
 * The lines of `blocks`, in the order given, with the mark and wait lines that make the replay
 * play them across lanes in the order the recorder saw them: when a line of one lane came after
 * a line of another lane that came after the line before it in its own lane, that other line
 * gets a mark and this one waits for it. A request's arrival counts as its expect_outbound's
 * stamp, so the answer lines it caused in other lanes wait for it. `hold` lines are kept out of
 * the order: they record that an answer stayed open, nothing the app saw. A frame that must be
 * followed by a mark or a wait loses its `join` (the order matters more than the writes).
 */
export const orderedLines = (blocks: ReadonlyArray<LaneBlock>): Array<RecordedLine> => {
  const lanes = new Map<string, Array<StampedLine>>();
  for (const block of blocks) {
    const slots = lanes.get(block.lane) ?? [];
    lanes.set(block.lane, slots);
    for (const entry of block.lines) if (entry.line.type !== "hold") slots.push(entry);
  }
  const marks = new Map<StampedLine, string>();
  const waits = new Map<StampedLine, Array<string>>();
  for (const [lane, slots] of lanes) {
    slots.forEach((entry, index) => {
      const before = slots[index - 1];
      if (before === undefined || entry.line.type === "expect_outbound") return;
      for (const [other, otherSlots] of lanes) {
        if (other === lane) continue;
        const at = lastBefore(otherSlots, entry.stamp);
        const cause = otherSlots[at];
        if (cause === undefined || cause.stamp <= before.stamp) continue;
        const name = marks.get(cause) ?? `${other}-${at + 1}`;
        marks.set(cause, name);
        waits.set(entry, [...(waits.get(entry) ?? []), name]);
      }
    });
  }
  return blocks.flatMap((block) =>
    block.lines.flatMap((entry, index) => {
      const next = block.lines[index + 1];
      const mark = marks.get(entry);
      const unjoin = entry.line["join"] === true && (mark !== undefined || (next !== undefined && waits.has(next)));
      return [
        ...(waits.get(entry) ?? []).map((name) => ({ type: "wait", for: name })),
        unjoin ? withoutJoin(entry.line) : entry.line,
        ...(mark === undefined ? [] : [{ type: "mark", name: mark }]),
      ];
    }),
  );
};
