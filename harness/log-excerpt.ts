import { collapseRepeats, countedLine } from "../common/repeated-lines.ts";
import { notableLine } from "../common/notable-line.ts";

/**
 * What of an app's output goes into a message or a report: its last lines, and before them its
 * warnings and errors (the line that says why often comes early). Very long lines are cut, and a
 * line that repeats (numbers aside) is shown once, where it came last, with its count.
 */

// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with the ESC control character.
const ansi = /\u001b\[[0-9;?]*[A-Za-z]/g;

const longLine = 500;
const keptOfLongLine = 200;
const tailLines = 16;
const tailChars = 2_000;
const notableLines = 8;
const notableChars = 1_000;

/** `line` whole when it is at most `longLine` characters, else its start and how many characters more it had. */
export function shownLine(line: string): string {
  return line.length <= longLine ? line : `${line.slice(0, keptOfLongLine)}… [${line.length - keptOfLongLine} more characters]`;
}

/**
 * The excerpt of `output`: its earlier warnings and errors, then its last lines, each line once (one that repeats, the
 * same but for its numbers, where it came last with `[×n]`); at most about 3 000 characters.
 */
export function logExcerpt(output: string): string {
  const counted = collapseRepeats(
    output
      .replace(ansi, "")
      .split(/\r?\n|\r/)
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== ""),
  );
  const lines = counted.map(({ line, count }) => countedLine({ line: shownLine(line), count }));

  const tail: string[] = [];
  let left = tailChars;
  for (let i = lines.length - 1; i >= 0 && tail.length < tailLines; i -= 1) {
    const line = lines[i] ?? "";
    if (line.length + 1 > left) break;
    tail.unshift(line);
    left -= line.length + 1;
  }
  const before = lines.slice(0, lines.length - tail.length);
  if (before.length === 0) return tail.join("\n");
  const earlier = counted.slice(0, before.length).reduce((sum, { count }) => sum + count, 0);

  // The latest warnings and errors before the tail, in the order they came.
  const picked: number[] = [];
  left = notableChars;
  for (let i = before.length - 1; i >= 0 && picked.length < notableLines; i -= 1) {
    const line = before[i] ?? "";
    if (!notableLine.test(line) || line.length + 1 > left) continue;
    picked.unshift(i);
    left -= line.length + 1;
  }
  const note =
    picked.length === 0
      ? `[scenario-harness: ${earlier} earlier line(s) of the app's output left out]`
      : `[scenario-harness: above, the warnings and errors among ${earlier} earlier line(s) of the app's output; the rest left out]`;
  return [...picked.map((i) => before[i] ?? ""), note, ...tail].join("\n");
}
