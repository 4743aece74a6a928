import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import { distinctLabels, labelSlug, mergeLabels } from "../report/labels.ts";
import { copyImage } from "../report/artifacts.ts";
import { combine, noRedactions, redact, redactionCounts, type Redactions, type Replacement } from "../report/redact.ts";
import type { ReportScreenshot } from "../report/schema.ts";
import type { CommitDetails } from "./commits.ts";
import { renderBisectMarkdown } from "./markdown.ts";
import type { BisectReport, BisectScreenshotRow } from "./schema.ts";

/** A commit's runs, as this bisection made them. */
export interface RunEvidence {
  readonly commit: CommitDetails;
  readonly attempts: ReadonlyArray<ClassifiedAttempt>;
}

/** What the report says, before the folder's own fields and redaction. */
export type BisectFacts = Omit<BisectReport, "screenshots" | "dir" | "markdown" | "command" | "redactions">;

export interface BisectReportInput {
  /** The report folder, absolute. */
  readonly dir: string;
  /** The invoking checkout: `dir` is written relative to it. */
  readonly root: string;
  readonly facts: BisectFacts;
  /** The last commit with the old outcome and the first with the new, whose screenshots sit side by side. */
  readonly pair: { readonly lastOld: RunEvidence; readonly firstNew: RunEvidence } | undefined;
  /** Written as it is, its paths already relative to the checkout. */
  readonly command: string;
  readonly secrets: ReadonlyArray<Replacement>;
  /** This machine's paths and what the report shows instead. */
  readonly paths: ReadonlyArray<Replacement>;
}

const ownEntries = ["images", "bisect.md", "bisect.json"];

/** The run a report shows for a commit: the first that did not pass, else the first (as a proof's report). */
const shown = (evidence: RunEvidence) => evidence.attempts.find(({ attempt }) => attempt.outcome !== "passed") ?? evidence.attempts[0];

/** A commit's labelled screenshots as `images/<which>-<label>.png`, and its failure screenshot as `images/<which>-failure.png`. */
async function copyScreenshots(dir: string, which: "last-old" | "first-new", evidence: RunEvidence) {
  const attempt = shown(evidence);
  const shots = attempt?.artifacts.screenshots ?? [];
  const labels = distinctLabels(shots.map((shot) => shot.label));
  const used = new Set([`images/${which}-failure.png`]);
  const copied: ReportScreenshot[] = [];
  for (const [index, shot] of shots.entries()) {
    const label = labels[index] ?? shot.label;
    let name = `images/${which}-${labelSlug(label)}.png`;
    for (let n = 2; used.has(name); n++) name = `images/${which}-${labelSlug(label)}-${n}.png`;
    used.add(name);
    const image = await copyImage(dir, name, label, shot.source);
    if (image !== undefined) copied.push(image);
  }
  const failureSource = attempt?.artifacts.failureScreenshot;
  const failure =
    failureSource === undefined ? undefined : await copyImage(dir, `images/${which}-failure.png`, "failure screenshot", failureSource);
  return { screenshots: copied, failure };
}

/**
 * A failing commit's failure screenshot goes in the row of the first label it did not reach,
 * beside the other commit's screenshot of that step, so the change sits in one row; in a row of
 * its own at the end when it reached every label.
 */
function placeFailure(rows: BisectScreenshotRow[], side: "lastOld" | "firstNew", failure: ReportScreenshot | undefined): void {
  if (failure === undefined) return;
  const at = rows.findIndex((row) => row[side] === null);
  const row = rows[at];
  if (row === undefined) rows.push({ label: failure.label, lastOld: null, firstNew: null, [side]: failure });
  else rows[at] = { ...row, [side]: failure };
}

/** Both commits' screenshots, one row per label in scenario order, with each failure screenshot placed by `placeFailure`. */
async function screenshotRows(dir: string, pair: BisectReportInput["pair"]): Promise<ReadonlyArray<BisectScreenshotRow>> {
  if (pair === undefined) return [];
  const lastOld = await copyScreenshots(dir, "last-old", pair.lastOld);
  const firstNew = await copyScreenshots(dir, "first-new", pair.firstNew);
  const rows = mergeLabels(
    lastOld.screenshots.map((shot) => shot.label),
    firstNew.screenshots.map((shot) => shot.label),
  ).map((label) => ({
    label,
    lastOld: lastOld.screenshots.find((shot) => shot.label === label) ?? null,
    firstNew: firstNew.screenshots.find((shot) => shot.label === label) ?? null,
  }));
  placeFailure(rows, "lastOld", lastOld.failure);
  placeFailure(rows, "firstNew", firstNew.failure);
  return rows;
}

function redactDeep<T>(value: T, replacements: ReadonlyArray<Replacement>, found: Redactions): T {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
    typeof item === "string" ? redact(item, replacements, found) : item,
  ) as T;
}

/**
 * Writes the bisection's report folder: the two commits' screenshots, bisect.md and bisect.json.
 * Every text passes through `redact` for this machine's paths and for secrets, as a proof's report
 * does; what was taken out is counted in `redactions`.
 */
export async function writeBisectReport(input: BisectReportInput): Promise<BisectReport> {
  const { dir, secrets } = input;
  const replacements = combine(secrets, input.paths);
  const found = noRedactions();
  await mkdir(dir, { recursive: true });
  await Promise.all(ownEntries.map((entry) => rm(join(dir, entry), { recursive: true, force: true })));
  const rows = await screenshotRows(dir, input.pair);
  const redacted: Omit<BisectReport, "redactions"> = {
    ...redactDeep(
      {
        ...input.facts,
        screenshots: { lastOld: input.pair?.lastOld.commit.sha ?? null, firstNew: input.pair?.firstNew.commit.sha ?? null, rows },
      },
      replacements,
      found,
    ),
    dir: redact(relative(input.root, dir) || ".", secrets, found),
    markdown: "bisect.md",
    command: redact(input.command, secrets, found),
  };
  const markdown = redact(renderBisectMarkdown({ ...redacted, redactions: redactionCounts(found) }), secrets, found);
  const report: BisectReport = { ...redacted, redactions: redactionCounts(found) };
  await writeFile(join(dir, report.markdown), markdown);
  await writeFile(join(dir, "bisect.json"), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
