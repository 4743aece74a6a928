// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with the ESC control character.
const ansi = /\u001b\[[0-9;]*[A-Za-z]/g;

export function stripAnsi(text: string): string {
  return text.replace(ansi, "");
}

const snippetLine = /^\s*>?\s*\d+ \|/;
const stackLine = /^\s+at /;
const maxLines = 40;
const maxChars = 4000;

/**
 * An error message as a person reads it in a report: no colour codes, no code snippet or stack
 * (the location says where), and no more than a screenful.
 */
export function cleanMessage(message: string): string {
  const lines = stripAnsi(message).split("\n");
  const end = lines.findIndex((line) => snippetLine.test(line) || stackLine.test(line));
  const kept = (end === -1 ? lines : lines.slice(0, end)).slice(0, maxLines).join("\n").trim();
  return kept.length > maxChars ? `${kept.slice(0, maxChars)}…` : kept;
}

/** The last lines of a log, for an error message. */
export function tail(text: string, lines = 30): string {
  return stripAnsi(text).trimEnd().split("\n").slice(-lines).join("\n");
}
