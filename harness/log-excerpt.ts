/**
 * What of an app's output goes into a message or a report: its last lines, and before them its
 * warnings and errors (the line that says why often comes early). Very long lines are cut.
 */

// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with the ESC control character.
const ansi = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** A line that looks like a warning or an error, in the words and signs servers and frameworks print. */
const notable =
  /\b(?:error|warn(?:ing)?|blocked|fail(?:ed|s|ure)?|fatal|exception|refused|denied|forbidden|cannot|unable|invalid)\b|\bERR[_!]|⚠|⨯|✗|✖|❌/i;

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

/** The excerpt of `output`: its earlier warnings and errors, each once, then its last lines; at most about 3 000 characters. */
export function logExcerpt(output: string): string {
  const lines = output
    .replace(ansi, "")
    .split(/\r?\n|\r/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .map(shownLine);

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

  // The latest warnings and errors before the tail, each once, in the order they came.
  const seen = new Set(tail);
  const picked: number[] = [];
  left = notableChars;
  for (let i = before.length - 1; i >= 0 && picked.length < notableLines; i -= 1) {
    const line = before[i] ?? "";
    if (!notable.test(line) || seen.has(line) || line.length + 1 > left) continue;
    seen.add(line);
    picked.unshift(i);
    left -= line.length + 1;
  }
  const note =
    picked.length === 0
      ? `[scenario-harness: ${before.length} earlier line(s) of the app's output left out]`
      : `[scenario-harness: above, the warnings and errors among ${before.length} earlier line(s) of the app's output; the rest left out]`;
  return [...picked.map((i) => before[i] ?? ""), note, ...tail].join("\n");
}
