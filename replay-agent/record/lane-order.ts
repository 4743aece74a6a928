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
const withoutJoin = ({ join: _join, ...line }: RecordedLine): RecordedLine => line;

/** The marks and waits that order a recording's lanes, kept up to date as lines are added. */
export interface LaneOrder {
  /**
   * Orders `entry`, the newest line of `lane`, after the lines of other lanes that came since the
   * line before it. Returns the lines that got a mark for it.
   */
  readonly add: (lane: string, entry: StampedLine) => ReadonlyArray<StampedLine>;
  /** Orders every line of `blocks` again: after a line came in that is older than lines already ordered. */
  readonly rebuild: (blocks: ReadonlyArray<LaneBlock>) => void;
  /** The lines `entry` is written as: the waits before it, itself, its mark; `next` is the line after it in its exchange. */
  readonly render: (entry: StampedLine, next: StampedLine | undefined) => Array<RecordedLine>;
}

/**
 * The order of a recording's lanes as the recorder saw them: when a line of one lane came after a
 * line of another lane that came after the line before it in its own lane, that other line gets a
 * mark and this one waits for it, so the replay plays them in that order too. A request's arrival
 * counts as its expect_outbound's stamp, so the answer lines it caused in other lanes wait for it.
 * `hold` lines are kept out of the order: they record that an answer stayed open, nothing the app
 * saw. A frame that must be followed by a mark or a wait loses its `join` (the order matters more
 * than the writes).
 */
export const makeLaneOrder = (): LaneOrder => {
  let lanes = new Map<string, Array<StampedLine>>();
  let marks = new Map<StampedLine, string>();
  let waits = new Map<StampedLine, Array<string>>();
  const add = (lane: string, entry: StampedLine): ReadonlyArray<StampedLine> => {
    if (entry.line.type === "hold") return [];
    const slots = lanes.get(lane) ?? [];
    lanes.set(lane, slots);
    const before = slots.at(-1);
    slots.push(entry);
    if (before === undefined || entry.line.type === "expect_outbound") return [];
    const marked: Array<StampedLine> = [];
    for (const [other, otherSlots] of lanes) {
      if (other === lane) continue;
      const at = lastBefore(otherSlots, entry.stamp);
      const cause = otherSlots[at];
      if (cause === undefined || cause.stamp <= before.stamp) continue;
      const name = marks.get(cause) ?? `${other}-${at + 1}`;
      if (!marks.has(cause)) marked.push(cause);
      marks.set(cause, name);
      waits.set(entry, [...(waits.get(entry) ?? []), name]);
    }
    return marked;
  };
  return {
    add,
    rebuild: (blocks) => {
      lanes = new Map();
      marks = new Map();
      waits = new Map();
      const all = blocks.flatMap((block) => block.lines.map((entry) => ({ lane: block.lane, entry })));
      all.sort((a, b) => a.entry.stamp - b.entry.stamp);
      for (const { lane, entry } of all) add(lane, entry);
    },
    render: (entry, next) => {
      const mark = marks.get(entry);
      const unjoin = entry.line["join"] === true && (mark !== undefined || (next !== undefined && waits.has(next)));
      return [
        ...(waits.get(entry) ?? []).map((name) => ({ type: "wait", for: name })),
        unjoin ? withoutJoin(entry.line) : entry.line,
        ...(mark === undefined ? [] : [{ type: "mark", name: mark }]),
      ];
    },
  };
};
