/** The line npm starts its error with: `npm error code EUSAGE` (npm 10 on), `npm ERR! code ERESOLVE` (before). */
const codeLine = /^npm (?:error|ERR!) code \S/;
/** Where npm's usage text for the command starts, after the error. */
const usageLine = /^npm (?:error|ERR!) Usage:$/;
/** A line of npm's error with nothing after its prefix (what separates its paragraphs), or an empty line. */
const blankLine = /^(?:npm (?:error|ERR!))?\s*$/;
/** The most of the error block kept: npm's own paragraphs, not a dependency tree. */
const maxLines = 16;

/**
 * npm's error as it states it, from its `code` line to the paragraph before its usage text (the
 * command's one-line description, dropped with it); undefined when `log` holds no npm error. A
 * failed `npm ci` prints the decisive lines first (`Missing: x@1 from lock file`) and then 90 lines
 * of usage, so a log's tail alone would show only the usage.
 */
export function npmErrorBlock(log: string): string | undefined {
  const lines = log.split(/\r?\n/);
  const start = lines.findIndex((line) => codeLine.test(line));
  if (start === -1) return undefined;
  const usage = lines.findIndex((line, index) => index > start && usageLine.test(line));
  let block = lines.slice(start, usage === -1 ? start + maxLines : usage);
  if (usage !== -1) {
    // The paragraph just before Usage: is the command's description ("Clean install a project").
    const withoutTrailing = block.slice(0, block.findLastIndex((line) => !blankLine.test(line)) + 1);
    const lastBreak = withoutTrailing.findLastIndex((line) => blankLine.test(line));
    block = lastBreak === -1 ? withoutTrailing : withoutTrailing.slice(0, lastBreak);
  }
  const kept = block.slice(0, block.findLastIndex((line) => !blankLine.test(line)) + 1).slice(0, maxLines);
  return kept.length === 0 ? undefined : kept.join("\n");
}
