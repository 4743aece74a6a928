import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { Decision } from "../outcome/verdict.ts";
import { writeComparison } from "./comparison.ts";
import { columnTitle, copyEvidence, redactDeep, reportSide, type SideEvidence } from "./evidence.ts";
import { renderMarkdown } from "./markdown.ts";
import { writePerformance, type PerformanceInput } from "./performance.ts";
import { combine, noRedactions, redact, redactionCounts, type Replacement } from "./redact.ts";
import type { ProofReport } from "./schema.ts";
import { reportTimings } from "./timings.ts";
import type { TimedStep } from "../progress/progress.ts";

export type { SideEvidence } from "./evidence.ts";

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
  /** The proof's finished steps with their durations: the report's timings. */
  readonly steps: ReadonlyArray<TimedStep>;
  /** Written as it is, its paths already relative to the checkout. */
  readonly command: string;
  /** Secret values: taken out of everything the report holds. */
  readonly secrets: ReadonlyArray<Replacement>;
  /** This machine's paths and what the report shows instead, in every text, log and trace it holds. */
  readonly paths: ReadonlyArray<Replacement>;
  /** A performance proof's samples: report.json's `performance`, its plot and traces, and report.md's section. */
  readonly performance?: PerformanceInput;
}

const ownEntries = ["images", "base", "head", "report.json", "report.md", "comparison.png"];

/**
 * Writes the report folder: each side's evidence, difference images, comparison.png, report.md and
 * report.json, every text redacted (`dir` and `command` for secrets only: they are relative already).
 */
export async function writeReport(input: ReportInput): Promise<ProofReport> {
  const started = performance.now();
  const { dir, secrets } = input;
  const replacements = combine(secrets, input.paths);
  const found = noRedactions();
  await mkdir(dir, { recursive: true });
  await Promise.all(ownEntries.map((entry) => rm(join(dir, entry), { recursive: true, force: true })));

  const evidence = await copyEvidence({ dir, base: input.base, head: input.head, replacements, found, settings: { failureRows: true } });
  const { rows } = evidence;
  const perf = input.performance === undefined ? undefined : await writePerformance(input.performance, dir, replacements, found);

  const redacted = {
    ...redactDeep(
      {
        schema: "scenario-proof/v1",
        verdict: input.decision.verdict,
        exitCode: input.decision.exitCode,
        reasonCode: input.decision.reasonCode,
        reason: input.decision.reason,
        scenario: input.scenario,
        base: reportSide(input.base, evidence.base.artifacts),
        head: reportSide(input.head, evidence.head.artifacts),
        dir: "",
        comparisonImage: rows.length > 0 ? "comparison.png" : null,
        differences: evidence.differences,
        markdown: "report.md",
        timings: reportTimings({ totalMs: input.totalMs, steps: input.steps, base: input.base, head: input.head, reportMs: 0 }),
        command: "",
        ...(perf === undefined ? {} : { performance: perf }),
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

  // reportMs stops here: writing the Markdown and the JSON below takes a few ms more.
  const timings = { ...redacted.timings, reportMs: Math.round(performance.now() - started) };
  const errors = (["base", "head"] as const).flatMap((side) => {
    const attempt = evidence[side].shown?.attempt;
    const all = attempt?.errors ?? (attempt?.error === undefined ? [] : [attempt.error]);
    return all.map((error) => ({ side, error: redactDeep(error, replacements, found) }));
  });
  // A failing side's refused calls are in its error's message already; a passing side's are shown on their own.
  const refused = (["base", "head"] as const).flatMap((side) => {
    const attempt = evidence[side].shown?.attempt;
    return attempt?.outcome === "passed" && attempt.refused !== undefined
      ? [{ side, calls: redactDeep(attempt.refused, replacements, found) }]
      : [];
  });
  // Counted after report.md is redacted too; it does not show the counts.
  const markdown = redact(
    renderMarkdown({
      report: { ...redacted, timings, redactions: redactionCounts(found) },
      rows,
      errors,
      refused,
      ...(input.performance === undefined ? {} : { metric: input.performance.request.metric }),
    }),
    secrets,
    found,
  );
  const report: ProofReport = { ...redacted, timings, redactions: redactionCounts(found) };
  await writeFile(join(dir, report.markdown), markdown);
  await writeFile(join(dir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
