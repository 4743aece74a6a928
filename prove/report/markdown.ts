import type { MeasureMetric } from "../../common/contract.ts";
import { performanceMarkdown } from "./performance.ts";
import { timingsLine } from "./timings.ts";
import { markdownTable } from "markdown-table";
import { describeDurations } from "../outcome/durations.ts";
import { isShaOf } from "../outcome/ref-label.ts";
import { describeRefused } from "../outcome/refused.ts";
import type { AttemptError, RefusedCall, SideName, Verdict } from "../outcome/types.ts";
import { emptyCell, failureNote, hasDifference, type ComparisonRow } from "./rows.ts";
import type { ProofReport, ReportDifference, ReportScreenshot, ReportSide } from "./schema.ts";
import { describeShare } from "./share.ts";

export interface MarkdownInput {
  readonly report: ProofReport;
  /** Screenshot rows in scenario order, then the failure screenshot row when there is one (see screenshotRows). */
  readonly rows: ReadonlyArray<ComparisonRow>;
  /** The errors of each side that did not pass, from the attempt the report shows: its first cause, then the others in order. */
  readonly errors: ReadonlyArray<{ readonly side: SideName; readonly error: AttemptError }>;
  /** The calls the route refused on a side whose shown attempt passed (a failed one's are in its error). */
  readonly refused?: ReadonlyArray<{ readonly side: SideName; readonly calls: ReadonlyArray<RefusedCall> }>;
  /** A performance proof's metric, for its section's values. */
  readonly metric?: MeasureMetric;
}

/** A verdict as a headline, in report.md and summary.md. */
export const headlines: Readonly<Record<Verdict, string>> = {
  proved: "✅ Proved",
  "not-proved": "❌ Not proved",
  "could-not-run": "⚠️ Could not run",
};

/** A thumbnail's width with two columns, and with three, so a PR shows a row without scrolling. */
const thumbnailWidth = 400;
const narrowThumbnailWidth = 260;

const cellText = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
const short = (sha: string | null) => (sha === null ? "?" : sha.slice(0, 7));

/** `text` in a code fence longer than any run of backticks inside it. */
export function fenced(text: string, info = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

/** A thumbnail linking to the full image. */
function thumbnail(shot: ReportScreenshot, alt: string, width: number): string {
  return `<a href="${shot.path}"><img src="${shot.path}" width="${width}" alt="${cellText(alt).replace(/"/g, "&quot;")}"></a>`;
}

function sideCell(row: ComparisonRow, side: SideName, width: number): string {
  const shot = row[side];
  if (shot === undefined) return cellText(emptyCell(row, side));
  const image = thumbnail(shot, `${side}: ${shot.label}`, width);
  return row.failure === side ? `${image}<br>${failureNote}` : image;
}

/**
 * The difference column's cell: the row's difference image with how much changed (`describe`: a proof's share by
 * default, compare's verdict for compare.md), or `none`.
 */
export function differenceCell(
  row: ComparisonRow,
  width: number,
  none: string,
  describe: (difference: ReportDifference) => string = describeShare,
): string {
  const { difference, failureDifference: failure } = row;
  if (difference !== undefined) return `${thumbnail(difference, `difference: ${difference.label}`, width)}<br>${describe(difference)}`;
  if (failure === undefined) return none;
  const alt = `difference: ${failure.failure}'s failure screenshot against ${failure.failure === "base" ? "head" : "base"}: ${failure.label}`;
  return `${thumbnail(failure, alt, width)}<br>${describe(failure)}`;
}

/** The screenshot table: base | head, and a difference column (cells by `differenceOf`) when any row has one. */
export function screenshotTable(
  columns: { readonly base: string; readonly head: string },
  rows: ReadonlyArray<ComparisonRow>,
  differenceOf: (row: ComparisonRow, width: number) => string = (row, width) => differenceCell(row, width, "—"),
  withDifferences = rows.some(hasDifference),
): string {
  const width = withDifferences ? narrowThumbnailWidth : thumbnailWidth;
  return markdownTable(
    [
      ["", columns.base, columns.head, ...(withDifferences ? ["difference"] : [])],
      ...rows.map((row) => [
        `**${cellText(row.caption)}**`,
        sideCell(row, "base", width),
        sideCell(row, "head", width),
        ...(withDifferences ? [differenceOf(row, width)] : []),
      ]),
    ],
    { alignDelimiters: false },
  );
}

/** The ref after the SHA, unless the ref is the SHA itself. */
const refAfterSha = (side: ReportSide, shown: (ref: string) => string) => (isShaOf(side.ref, side.sha) ? "" : ` ${shown(side.ref)}`);

/** A side's column title: its name, short SHA and ref. */
export function column(name: SideName, side: ReportSide): string {
  return `${name} \`${short(side.sha)}\`${refAfterSha(side, cellText)}`;
}

function outcomes(side: ReportSide): string {
  if (side.attempts.length === 0) return "not run";
  return side.attempts.map((attempt) => `${attempt.outcome} (${describeDurations(attempt)})`).join(", ");
}

/** A side's line under Commits: short SHA, ref, subject and each attempt's outcome. */
export function commitLine(name: SideName, side: ReportSide): string {
  const subject = side.subject === null ? "" : ` ${side.subject}`;
  return `- ${name}: \`${short(side.sha)}\`${refAfterSha(side, (ref) => `(${ref})`)}${subject} — ${outcomes(side)}`;
}

/** report.md: what a reviewer reads in the PR, verdict first. */
export function renderMarkdown({ report, rows, errors, refused = [], metric }: MarkdownInput): string {
  const title = report.scenario.title ?? report.scenario.file;
  const parts: string[] = [`## ${headlines[report.verdict]}: ${title}`, "", `**${report.reasonCode}** — ${report.reason}`];
  if (report.performance !== undefined && metric !== undefined) parts.push("", performanceMarkdown(report.performance, metric));

  if (rows.length > 0) parts.push("", screenshotTable({ base: column("base", report.base), head: column("head", report.head) }, rows));

  errors.forEach(({ side, error }, index) => {
    const where = error.location === undefined ? "" : ` at \`${error.location}\``;
    const then = errors[index - 1]?.side === side ? ", then" : "";
    parts.push("", `**${side === "base" ? "Base" : "Head"}${then}: ${error.kind}**${where}`, "", fenced(error.message, "text"));
  });
  for (const { side, calls } of refused) {
    const lines = calls.map((call) => `- \`${describeRefused(call)}\``);
    parts.push(
      "",
      `**${side === "base" ? "Base" : "Head"}: calls the route refused** (neither routed to the replay agent nor allowed)`,
      "",
      ...lines,
    );
  }

  parts.push("", "### Commits", "", commitLine("base", report.base), commitLine("head", report.head), "", timingsLine(report.timings));
  const evidence = [report.comparisonImage, report.base.trace, report.base.serverLog, report.head.trace, report.head.serverLog].filter(
    (path): path is string => path !== null,
  );
  if (evidence.length > 0) parts.push("", `Files: ${evidence.map((path) => `[${path}](${path})`).join(", ")}`);
  parts.push(
    "",
    "### Reproduce",
    "",
    `Scenario \`${report.scenario.file}\`${report.scenario.title === null ? "" : ` › ${cellText(report.scenario.title)}`}`,
    "",
    fenced(report.command, "sh"),
    "",
  );
  return parts.join("\n");
}
