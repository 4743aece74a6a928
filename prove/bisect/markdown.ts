import { markdownTable } from "markdown-table";
import { isShaOf } from "../outcome/ref-label.ts";
import { fenced } from "../report/markdown.ts";
import type { ReportScreenshot } from "../report/schema.ts";
import type { CommitDetails } from "./commits.ts";
import type { BisectEnd, BisectReport, BisectStep } from "./schema.ts";

const thumbnailWidth = 400;

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
const short = (sha: string) => `\`${sha.slice(0, 7)}\``;
const table = (rows: ReadonlyArray<ReadonlyArray<string>>) =>
  markdownTable(
    rows.map((row) => [...row]),
    { alignDelimiters: false },
  );

/** What the commit did, as a headline says it. */
const did = (report: BisectReport) => (report.direction === "fixed" ? "fixed it" : "introduced the failure");

function headline(report: BisectReport): string {
  switch (report.result) {
    case "found":
      return `## 🔎 Found: ${short(report.commit?.sha ?? "")} ${did(report)}`;
    case "range":
      return `## 🔎 Range: one of ${report.candidates.length} commits ${did(report)}`;
    case "unchanged":
      return `## ➖ Unchanged: the scenario ${report.old.outcome === "pass" ? "passes" : "fails"} at both ends`;
    case "could-not-run":
      return "## ⚠️ Could not run";
  }
}

const commitCell = (commit: CommitDetails) => `${short(commit.sha)} ${cell(commit.subject)}`;
const authorCell = (commit: CommitDetails) => `${cell(commit.author)}, ${commit.date}`;

/** A thumbnail linking to the image, captioned when it is not the row's label (a failure screenshot in the row of the step it stopped at). */
function image(shot: ReportScreenshot | null, label: string, alt: string): string {
  if (shot === null) return "not reached";
  const caption = shot.label === label ? "" : `<br>${cell(shot.label)}`;
  return `<a href="${shot.path}"><img src="${shot.path}" width="${thumbnailWidth}" alt="${cell(`${alt}: ${shot.label}`).replace(/"/g, "&quot;")}"></a>${caption}`;
}

function screenshots(report: BisectReport): string[] {
  const { lastOld, firstNew, rows } = report.screenshots;
  if (rows.length === 0 || lastOld === null || firstNew === null) return [];
  const [oldOutcome, newOutcome] = [report.old.outcome, report.new.outcome];
  const header = ["", `last ${oldOutcome} ${short(lastOld)}`, `first ${newOutcome} ${short(firstNew)}`];
  const body = rows.map((row) => [
    `**${cell(row.label)}**`,
    image(row.lastOld, row.label, `last ${oldOutcome}`),
    image(row.firstNew, row.label, `first ${newOutcome}`),
  ]);
  return ["", "### Screenshots", "", table([header, ...body])];
}

const endOutcome = (end: BisectEnd) => (end.why === null ? end.outcome : `${end.outcome}: ${cell(end.why)}`);
const stepOutcome = (step: BisectStep) => (step.why === null ? step.outcome : `${step.outcome}: ${cell(step.why)}`);
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

function steps(report: BisectReport): string[] {
  const end = (name: "old" | "new", side: BisectEnd) => [
    `--${name}`,
    `${short(side.sha)}${isShaOf(side.ref, side.sha) ? "" : ` ${cell(side.ref)}`}`,
    cell(side.subject),
    endOutcome(side),
    "",
  ];
  const rows = report.steps.map((step) => [
    String(step.step),
    short(step.sha),
    cell(step.subject),
    stepOutcome(step),
    `${plural(step.commitsLeft, "commit")}, about ${plural(step.stepsLeft, "step")}`,
  ]);
  const summary =
    report.result === "found" || report.result === "range"
      ? [
          "",
          `${plural(report.commits, "commit")} after --old up to --new; ${plural(report.steps.length, "step")} after both ends ` +
            `(at most ⌈log2 ${report.commits}⌉ + ${report.skipped.length} skipped = ${report.maxSteps})` +
            `${report.repeat > 1 ? `, each commit run ${report.repeat} times` : ""}.`,
        ]
      : [];
  return [
    "",
    "### Steps",
    "",
    table([["step", "commit", "subject", "outcome", "left"], end("old", report.old), end("new", report.new), ...rows]),
    ...summary,
  ];
}

function commits(report: BisectReport): string[] {
  if (report.result === "found" && report.commit !== null) {
    const rows = [
      ["commit", commitCell(report.commit)],
      ["author", authorCell(report.commit)],
      ["full SHA", `\`${report.commit.sha}\``],
    ];
    if (report.lastOld !== null) rows.push([`last ${report.old.outcome}`, commitCell(report.lastOld)]);
    return ["", table(rows)];
  }
  if (report.result === "range") {
    const rows = report.candidates.map((commit) => [
      commitCell(commit),
      authorCell(commit),
      report.skipped.some((skipped) => skipped.sha === commit.sha) ? "skipped" : report.new.outcome,
    ]);
    return ["", table([["candidate", "author", "outcome"], ...rows])];
  }
  return [];
}

function skipped(report: BisectReport): string[] {
  if (report.skipped.length === 0) return [];
  return ["", "### Skipped", "", ...report.skipped.map((commit) => `- ${commitCell(commit)} — ${cell(commit.why)}`)];
}

/** bisect.md: the answer first, then the screenshots, the steps, the skipped commits and how to run it again. */
export function renderBisectMarkdown(report: BisectReport): string {
  const parts = [
    headline(report),
    "",
    `Scenario \`${report.scenario.file}\` › ${cell(report.scenario.title)}`,
    "",
    `**${report.result}** — ${report.reason}`,
  ];
  parts.push(...commits(report), ...screenshots(report), ...steps(report), ...skipped(report));
  parts.push("", "### Reproduce", "", fenced(report.command, "sh"), "");
  return parts.join("\n");
}
