/**
 * Lines that repeat, told apart from lines that differ: an app that fails the same fetch a hundred times prints a
 * hundred lines that differ only in a timestamp, a duration or a count, and an excerpt's budget should go to the rest.
 */

/** A line with every run of digits made one sign: two lines are "the same" when these are equal. */
export const sameness = (line: string): string => line.replace(/\d+/g, "#");

/** A line and how many lines of the text it stands for (itself and those like it). */
export interface CountedLine {
  readonly line: string;
  readonly count: number;
}

/**
 * `lines` with each that repeats (the same, numbers aside) kept once, where it came last, with how many times it came;
 * the others as they were, in order.
 */
export function collapseRepeats(lines: ReadonlyArray<string>): ReadonlyArray<CountedLine> {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(sameness(line), (counts.get(sameness(line)) ?? 0) + 1);
  const left = new Map(counts);
  const kept: CountedLine[] = [];
  for (const line of lines) {
    const key = sameness(line);
    const remaining = (left.get(key) ?? 1) - 1;
    left.set(key, remaining);
    if (remaining === 0) kept.push({ line, count: counts.get(key) ?? 1 });
  }
  return kept;
}

/** A kept line as an excerpt shows it: `GET /fonts failed [×100]` for one that came a hundred times. */
export const countedLine = ({ line, count }: CountedLine): string => (count === 1 ? line : `${line} [×${count}]`);
