import { markdownTable } from "markdown-table";
import { describeDurations } from "../outcome/durations.ts";
import { isShaOf } from "../outcome/ref-label.ts";
import type { AttemptError, SideName, Verdict } from "../outcome/types.ts";
import type { ComparisonRow } from "./comparison.ts";
import type { ProofReport, ReportScreenshot, ReportSide } from "./schema.ts";

export interface MarkdownInput {
  readonly report: ProofReport;
  /** Screenshot rows in scenario order, then the failure screenshot row when there is one. */
  readonly rows: ReadonlyArray<ComparisonRow>;
  /** The error of each side that did not pass, from the attempt the report shows. */
  readonly errors: ReadonlyArray<{ readonly side: SideName; readonly error: AttemptError }>;
}

/** A verdict as a headline, in report.md and summary.md. */
export const headlines: Readonly<Record<Verdict, string>> = {
  proved: "✅ Proved",
  "not-proved": "❌ Not proved",
  "could-not-run": "⚠️ Could not run",
};

const thumbnailWidth = 400;

const cellText = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
const short = (sha: string | null) => (sha === null ? "?" : sha.slice(0, 7));

/** `text` in a code fence longer than any run of backticks inside it. */
export function fenced(text: string, info = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

function image(shot: ReportScreenshot | undefined, side: SideName, missing: string): string {
  if (shot === undefined) return missing;
  return `<a href="${shot.path}"><img src="${shot.path}" width="${thumbnailWidth}" alt="${side}: ${cellText(shot.label).replace(/"/g, "&quot;")}"></a>`;
}

/** The ref after the SHA, unless the ref is the SHA itself. */
const refAfterSha = (side: ReportSide, shown: (ref: string) => string) => (isShaOf(side.ref, side.sha) ? "" : ` ${shown(side.ref)}`);

function column(name: SideName, side: ReportSide): string {
  return `${name} \`${short(side.sha)}\`${refAfterSha(side, cellText)}`;
}

function outcomes(side: ReportSide): string {
  if (side.attempts.length === 0) return "not run";
  return side.attempts.map((attempt) => `${attempt.outcome} (${describeDurations(attempt)})`).join(", ");
}

function commitLine(name: SideName, side: ReportSide): string {
  const subject = side.subject === null ? "" : ` ${side.subject}`;
  return `- ${name}: \`${short(side.sha)}\`${refAfterSha(side, (ref) => `(${ref})`)}${subject} — ${outcomes(side)}`;
}

/** report.md: what a reviewer reads in the PR, verdict first. */
export function renderMarkdown({ report, rows, errors }: MarkdownInput): string {
  const title = report.scenario.title ?? report.scenario.file;
  const parts: string[] = [`## ${headlines[report.verdict]}: ${title}`, "", `**${report.reasonCode}** — ${report.reason}`];

  if (rows.length > 0) {
    const table = markdownTable(
      [
        ["", column("base", report.base), column("head", report.head)],
        ...rows.map((row) => {
          const missing = row.caption === "failure screenshot" ? "no failure" : "not reached";
          return [`**${cellText(row.caption)}**`, image(row.base, "base", missing), image(row.head, "head", missing)];
        }),
      ],
      { alignDelimiters: false },
    );
    parts.push("", table);
  }

  for (const { side, error } of errors) {
    const where = error.location === undefined ? "" : ` at \`${error.location}\``;
    parts.push("", `**${side === "base" ? "Base" : "Head"}: ${error.kind}**${where}`, "", fenced(error.message, "text"));
  }

  parts.push("", "### Commits", "", commitLine("base", report.base), commitLine("head", report.head));
  const evidence = [
    report.comparisonImage,
    report.base.trace,
    report.base.serverLog,
    report.head.trace,
    report.head.serverLog,
  ].filter((path): path is string => path !== null);
  if (evidence.length > 0) parts.push("", `Files: ${evidence.map((path) => `[${path}](${path})`).join(", ")}`);
  parts.push("", "### Reproduce", "", `Scenario \`${report.scenario.file}\`${report.scenario.title === null ? "" : ` › ${cellText(report.scenario.title)}`}`, "", fenced(report.command, "sh"), "");
  return parts.join("\n");
}
