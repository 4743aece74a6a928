/**
 * The words of a command line, quoted as a POSIX shell quotes them: `'…'` keeps everything, `"…"`
 * keeps everything but `\"`, `\\`, `\$` and `` \` ``, and a backslash outside quotes keeps the next
 * character. Nothing is expanded (no variables, globs or `~`). The inverse of the launcher's
 * `shellQuote`. A string saying what is wrong when a quote is left open.
 */
export const splitCommand = (text: string): ReadonlyArray<string> | string => {
  const words: Array<string> = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let at = 0; at < text.length; at++) {
    const char = text.charAt(at);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      const next = text.charAt(at + 1);
      if (char === '"') quote = undefined;
      else if (char === "\\" && '"\\$`'.includes(next) && next !== "") word += text.charAt(++at);
      else word += char;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word ??= "";
      if (char === "'" || char === '"') quote = char;
      else if (char === "\\" && at + 1 < text.length) word += text.charAt(++at);
      else word += char;
    }
  }
  if (quote !== undefined) return `its ${quote === "'" ? "single" : "double"} quote is never closed`;
  if (word !== undefined) words.push(word);
  return words;
};
