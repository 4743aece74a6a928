import type { AttemptError, SideName } from "../outcome/types.ts";
import { column, commitLine, differenceCell, fenced, screenshotTable } from "../report/markdown.ts";
import { failureCaption, type ComparisonRow } from "../report/rows.ts";
import { describeDifference, formatShare } from "../report/share.ts";
import type { CompareReport } from "./schema.ts";

export interface CompareMarkdownInput {
  readonly report: CompareReport;
  readonly rows: ReadonlyArray<ComparisonRow>;
  /** The error of each side that did not pass, from the attempt the report shows. */
  readonly errors: ReadonlyArray<{ readonly side: SideName; readonly error: AttemptError }>;
}

/** The difference column of compare.md: the difference with its verdict, or the side that alone reached the label. */
function verdictCell(row: ComparisonRow, width: number): string {
  if (row.difference !== undefined) return differenceCell(row, width, "", describeDifference);
  if (row.caption === failureCaption) return "—";
  return row.base !== undefined && row.failure !== "base" ? "only on base" : "only on head";
}

/** compare.md: what changed on screen between base and head, label by label. */
export function renderCompareMarkdown({ report, rows, errors }: CompareMarkdownInput): string {
  const title = report.scenario.title ?? report.scenario.file;
  const headline = report.exitCode === 0 ? "🖼️ Compared" : "⚠️ Could not compare";
  const parts: string[] = [`## ${headline}: ${title}`, "", `**${report.reasonCode}** — ${report.reason}`];
  if (rows.length > 0) {
    parts.push(
      "",
      `A label is unchanged when at most ${formatShare(report.threshold)} of its pixels changed; a pixel changed when a colour channel moved by more than ${report.tolerance} of 255. Changed pixels are magenta in the difference image.`,
      "",
      screenshotTable({ base: column("base", report.base), head: column("head", report.head) }, rows, verdictCell, true),
    );
  }
  for (const { side, error } of errors) {
    const where = error.location === undefined ? "" : ` at \`${error.location}\``;
    parts.push("", `**${side === "base" ? "Base" : "Head"}: ${error.kind}**${where}`, "", fenced(error.message, "text"));
  }
  parts.push("", "### Commits", "", commitLine("base", report.base), commitLine("head", report.head));
  const evidence = [report.base.trace, report.base.serverLog, report.head.trace, report.head.serverLog].filter(
    (path): path is string => path !== null,
  );
  if (evidence.length > 0) parts.push("", `Files: ${evidence.map((path) => `[${path}](${path})`).join(", ")}`);
  parts.push(
    "",
    "### Reproduce",
    "",
    `Scenario \`${report.scenario.file}\`${report.scenario.title === null ? "" : ` › ${report.scenario.title.replace(/\|/g, "\\|")}`}`,
    "",
    fenced(report.command, "sh"),
    "",
  );
  return parts.join("\n");
}
