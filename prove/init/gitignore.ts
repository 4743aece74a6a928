/** What init keeps out of git: reports/ at the checkout's root, and test-results/ beside the config. */
const ignored: ReadonlyArray<{ readonly line: string; readonly matches: ReadonlySet<string> }> = [
  { line: "/reports/", matches: new Set(["reports", "reports/", "/reports", "/reports/"]) },
  { line: "test-results/", matches: new Set(["test-results", "test-results/"]) },
];

/**
 * .gitignore's text with `/reports/` and `test-results/` added where it does not ignore them yet;
 * undefined when it already ignores both. `text` is undefined for no file. `/test-results/`
 * counts only when `appAtRoot`: anchored, it misses an app in a sub-folder.
 */
export function withOutputsIgnored(text: string | undefined, appAtRoot: boolean): string | undefined {
  const lines = new Set((text ?? "").split(/\r?\n/).map((line) => line.trim()));
  const missing = ignored
    .filter(
      ({ line, matches }) =>
        ![...matches, ...(appAtRoot && line === "test-results/" ? ["/test-results", "/test-results/"] : [])].some((match) =>
          lines.has(match),
        ),
    )
    .map(({ line }) => line);
  if (missing.length === 0) return undefined;
  if (text === undefined) return missing.map((line) => `${line}\n`).join("");
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return `${text}${text === "" || text.endsWith("\n") ? "" : eol}${missing.map((line) => `${line}${eol}`).join("")}`;
}
