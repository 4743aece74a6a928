import { markdownTable } from "markdown-table";
import { isShaOf } from "../outcome/ref-label.ts";
import { fenced, headlines } from "../report/markdown.ts";
import type { Verdict } from "../outcome/types.ts";
import type { ProofSummary, SummaryCommit } from "./schema.ts";

const marks: Readonly<Record<Verdict, string>> = { proved: "✅", "not-proved": "❌", "could-not-run": "⚠️" };

const cellText = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
/** The first line of a reason, cut to what a table cell shows well. */
const firstLine = (text: string) => {
  const line =
    text
      .split("\n")
      .find((part) => part.trim() !== "")
      ?.trim() ?? "";
  return line.length > 240 ? `${line.slice(0, 239)}…` : line;
};

function commitLine(name: string, commit: SummaryCommit): string {
  const sha = commit.sha === null ? "?" : commit.sha.slice(0, 7);
  const ref = isShaOf(commit.ref, commit.sha) ? "" : ` (${commit.ref})`;
  return `- ${name}: \`${sha}\`${ref}${commit.subject === null ? "" : ` ${commit.subject}`}`;
}

/** summary.md: the verdict of every scenario in one table, each linking its report. */
export function renderSummary(summary: ProofSummary): string {
  const shard = summary.shard === null ? "" : ` (shard ${summary.shard.index} of ${summary.shard.total})`;
  const parts = [`## ${headlines[summary.verdict]}: ${summary.reason.replace(/\.$/, "")}${shard}`, ""];
  parts.push(commitLine("base", summary.base), commitLine("head", summary.head));
  if (summary.scenarios.length === 0) {
    parts.push("", summary.shard === null ? "No scenario ran." : "No scenario fell in this shard.");
  } else {
    const rows = summary.scenarios.map((row) => [
      marks[row.verdict],
      `[${cellText(row.file)}${row.title === null ? "" : ` › ${cellText(row.title)}`}](${encodeURI(row.report)})`,
      `**${row.reasonCode}** — ${cellText(firstLine(row.reason))}`,
    ]);
    parts.push("", markdownTable([["", "scenario", "result"], ...rows], { alignDelimiters: false }));
  }
  parts.push("", "### Reproduce", "", fenced(summary.command, "sh"), "");
  return parts.join("\n");
}
