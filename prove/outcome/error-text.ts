import { collapseRepeats, countedLine } from "../../common/repeated-lines.ts";

// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with the ESC control character.
const ansi = /\u001b\[[0-9;]*[A-Za-z]/g;

export function stripAnsi(text: string): string {
  return text.replace(ansi, "");
}

const snippetLine = /^\s*>?\s*\d+ \|/;
const stackLine = /^\s+at /;
const maxLines = 40;
const maxChars = 4000;

/** A run of base64 long enough to be an inline file (a screenshot's PNG, a trace), not a word. */
const base64Run = /[A-Za-z0-9+/]{200,}={0,2}/g;

/** `text` with each run of base64 replaced by a note of its length. */
function withoutBase64(text: string): string {
  return text.replace(base64Run, (run) => `[${run.length} characters of base64 left out]`);
}

/** An error message for a report: no colour codes, code snippet, stack or base64, and at most a screenful. */
export function cleanMessage(message: string): string {
  const lines = withoutBase64(stripAnsi(message)).split("\n");
  const end = lines.findIndex((line) => snippetLine.test(line) || stackLine.test(line));
  const kept = (end === -1 ? lines : lines.slice(0, end)).slice(0, maxLines).join("\n").trim();
  return kept.length > maxChars ? `${kept.slice(0, maxChars)}…` : kept;
}

const tailLines = 30;
const tailChars = 3000;
const longLine = 300;
const keptOfLongLine = 200;

/** A log line as an excerpt shows it: base64 runs named by their length, a long line cut with how much more it had. */
function shownLine(line: string): string {
  const shown = withoutBase64(line);
  return shown.length <= longLine ? shown : `${shown.slice(0, keptOfLongLine)}… [${shown.length - keptOfLongLine} more characters]`;
}

/**
 * The last lines of a log for an error message: at most `lines` (default 30) and 3000 characters, with a note of what
 * was left out; a line that repeats (the same but for its numbers) is shown once, where it came last, with `[×n]`.
 */
export function tail(text: string, lines = tailLines): string {
  const all = collapseRepeats(
    stripAnsi(text)
      .trimEnd()
      .split(/\r?\n|\r/),
  );
  const kept: string[] = [];
  let shown = 0;
  let left = tailChars;
  for (let index = all.length - 1; index >= 0 && kept.length < lines; index -= 1) {
    const { line, count } = all[index] ?? { line: "", count: 1 };
    const shownText = countedLine({ line: shownLine(line), count });
    if (shownText.length + 1 > left) break;
    kept.unshift(shownText);
    shown += count;
    left -= shownText.length + 1;
  }
  const cut = all.reduce((sum, { count }) => sum + count, 0) - shown;
  return cut === 0 ? kept.join("\n") : [`[${cut} earlier line${cut === 1 ? "" : "s"} left out]`, ...kept].join("\n");
}
