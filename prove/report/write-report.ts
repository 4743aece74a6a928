import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import { isShaOf } from "../outcome/ref-label.ts";
import type { SideName } from "../outcome/types.ts";
import type { Decision } from "../outcome/verdict.ts";
import { copySideArtifacts, type SideArtifacts } from "./artifacts.ts";
import { writeComparison, type ComparisonRow } from "./comparison.ts";
import { mergeLabels } from "./labels.ts";
import { renderMarkdown } from "./markdown.ts";
import { combine, noRedactions, redact, redactionCounts, type Redactions, type Replacement } from "./redact.ts";
import type { ProofReport, ReportSide } from "./schema.ts";

export interface SideEvidence {
  readonly ref: string;
  readonly commit: { readonly sha: string; readonly subject: string } | undefined;
  readonly attempts: ReadonlyArray<ClassifiedAttempt>;
}

export interface ReportInput {
  /** The report folder, absolute. */
  readonly dir: string;
  /** The invoking checkout: report.json's `dir` is relative to it. */
  readonly root: string;
  readonly decision: Decision;
  readonly scenario: ProofReport["scenario"];
  readonly base: SideEvidence;
  readonly head: SideEvidence;
  readonly totalMs: number;
  /** Written as it is, its paths already relative to the checkout. */
  readonly command: string;
  /** Secret values: taken out of everything the report holds. */
  readonly secrets: ReadonlyArray<Replacement>;
  /** This machine's paths and what the report shows instead, in every text, log and trace it holds. */
  readonly paths: ReadonlyArray<Replacement>;
}

const ownEntries = ["images", "base", "head", "report.json", "report.md", "comparison.png"];

/** The attempt a report shows for a side: the first that did not pass, else the first. */
function shown(side: SideEvidence): ClassifiedAttempt | undefined {
  return side.attempts.find((attempt) => attempt.attempt.outcome !== "passed") ?? side.attempts[0];
}

function redactDeep<T>(value: T, replacements: ReadonlyArray<Replacement>, found: Redactions): T {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) => (typeof item === "string" ? redact(item, replacements, found) : item)) as T;
}

function reportSide(side: SideEvidence, artifacts: SideArtifacts): ReportSide {
  return {
    ref: side.ref,
    sha: side.commit?.sha ?? null,
    subject: side.commit?.subject ?? null,
    attempts: side.attempts.map((attempt) => attempt.attempt),
    screenshots: artifacts.screenshots,
    trace: artifacts.trace ?? null,
    serverLog: artifacts.serverLog ?? null,
  };
}

const columnTitle = (name: SideName, side: SideEvidence) =>
  `${name} ${side.commit?.sha.slice(0, 7) ?? "?"}${isShaOf(side.ref, side.commit?.sha) ? "" : ` (${side.ref})`}${side.commit === undefined ? "" : ` ${side.commit.subject}`}`;

/**
 * Writes the report folder: screenshots, traces and server logs copied from each side,
 * comparison.png, report.md and report.json. Every text written passes through `redact` once
 * for paths (`dir` and `command` are written relative to the checkout already, and a relative
 * path can end in an absolute one) and, last, for secrets and credential-shaped strings; what it
 * took out is counted in report.json's `redactions`.
 */
export async function writeReport(input: ReportInput): Promise<ProofReport> {
  const { dir, secrets } = input;
  const replacements = combine(secrets, input.paths);
  const found = noRedactions();
  await mkdir(dir, { recursive: true });
  await Promise.all(ownEntries.map((entry) => rm(join(dir, entry), { recursive: true, force: true })));

  const noArtifacts: SideArtifacts = { screenshots: [] };
  const baseShown = shown(input.base);
  const headShown = shown(input.head);
  const baseArtifacts = baseShown === undefined ? noArtifacts : await copySideArtifacts("base", baseShown.artifacts, dir, replacements, found);
  const headArtifacts = headShown === undefined ? noArtifacts : await copySideArtifacts("head", headShown.artifacts, dir, replacements, found);

  const rows: ComparisonRow[] = mergeLabels(
    baseArtifacts.screenshots.map((shot) => shot.label),
    headArtifacts.screenshots.map((shot) => shot.label),
  ).map((caption) => ({
    caption,
    base: baseArtifacts.screenshots.find((shot) => shot.label === caption),
    head: headArtifacts.screenshots.find((shot) => shot.label === caption),
  }));
  if (baseArtifacts.failureScreenshot !== undefined || headArtifacts.failureScreenshot !== undefined) {
    rows.push({ caption: "failure screenshot", base: baseArtifacts.failureScreenshot, head: headArtifacts.failureScreenshot });
  }

  const redacted = {
    ...redactDeep(
      {
        schema: "scenario-proof/v1",
        verdict: input.decision.verdict,
        exitCode: input.decision.exitCode,
        reasonCode: input.decision.reasonCode,
        reason: input.decision.reason,
        scenario: input.scenario,
        base: reportSide(input.base, baseArtifacts),
        head: reportSide(input.head, headArtifacts),
        dir: "",
        comparisonImage: rows.length > 0 ? "comparison.png" : null,
        markdown: "report.md",
        timings: { totalMs: Math.round(input.totalMs) },
        command: "",
      } satisfies Omit<ProofReport, "redactions">,
      replacements,
      found,
    ),
    dir: redact(relative(input.root, dir) || ".", secrets, found),
    command: redact(input.command, secrets, found),
  };

  if (redacted.comparisonImage !== null) {
    await writeComparison({
      dir,
      file: join(dir, redacted.comparisonImage),
      title: `${redacted.verdict}: ${redacted.scenario.title ?? redacted.scenario.file}`,
      subtitle: redacted.reason,
      columns: [redact(columnTitle("base", input.base), replacements, found), redact(columnTitle("head", input.head), replacements, found)],
      rows,
    });
  }

  const errors = (["base", "head"] as const).flatMap((side) => {
    const error = (side === "base" ? baseShown : headShown)?.attempt.error;
    return error === undefined ? [] : [{ side, error: redactDeep(error, replacements, found) }];
  });
  // report.md does not show the counts, and its text is redacted too: they are counted once it is.
  const markdown = redact(renderMarkdown({ report: { ...redacted, redactions: redactionCounts(found) }, rows, errors }), secrets, found);
  const report: ProofReport = { ...redacted, redactions: redactionCounts(found) };
  await writeFile(join(dir, report.markdown), markdown);
  await writeFile(join(dir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
