import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { refLabel } from "../outcome/ref-label.ts";
import { copyEvidence, redactDeep, reportSide, type SideEvidence } from "../report/evidence.ts";
import { combine, noRedactions, redact, redactionCounts, type Replacement } from "../report/redact.ts";
import type { ProofReport } from "../report/schema.ts";
import { renderCompareMarkdown } from "./markdown.ts";
import { compareLabels, compareOutcome, countLabels, type CompareOutcome } from "./outcome.ts";
import type { CompareReport } from "./schema.ts";

export interface CompareInput {
  /** The report folder, absolute. */
  readonly dir: string;
  /** The invoking checkout: compare.json's `dir` is relative to it. */
  readonly root: string;
  readonly scenario: ProofReport["scenario"];
  readonly base: SideEvidence;
  readonly head: SideEvidence;
  /** undefined for the default. */
  readonly threshold: number | undefined;
  readonly totalMs: number;
  /** Written as it is, its paths already relative to the checkout. */
  readonly command: string;
  readonly secrets: ReadonlyArray<Replacement>;
  readonly paths: ReadonlyArray<Replacement>;
  /** Why the comparison stopped before both sides ran, when it did. */
  readonly stopped?: CompareOutcome;
}

const ownEntries = ["images", "base", "head", "compare.json", "compare.md"];

/**
 * Writes a comparison's folder: each side's screenshots, a difference image for every label both
 * reached, the trace and server log of a side that did not pass, compare.md and compare.json.
 * Redacted as a proof's report is: machine paths, then secrets and credential-shaped strings.
 */
export async function writeCompare(input: CompareInput): Promise<CompareReport> {
  const { dir, secrets } = input;
  const replacements = combine(secrets, input.paths);
  const found = noRedactions();
  await mkdir(dir, { recursive: true });
  await Promise.all(ownEntries.map((entry) => rm(join(dir, entry), { recursive: true, force: true })));

  const evidence = await copyEvidence({
    dir,
    base: input.base,
    head: input.head,
    replacements,
    found,
    settings: { threshold: input.threshold },
  });
  const labels = compareLabels(evidence.rows);
  const side = (name: "base" | "head") => ({
    ref: refLabel(input[name].ref, input[name].commit?.sha),
    attempts: input[name].attempts.map((attempt) => attempt.attempt),
    screenshots: evidence[name].artifacts.screenshots.length,
  });
  const outcome = input.stopped ?? compareOutcome(side("base"), side("head"), labels);
  const redacted = {
    ...redactDeep(
      {
        schema: "scenario-compare/v1",
        ...outcome,
        scenario: input.scenario,
        base: reportSide(input.base, evidence.base.artifacts),
        head: reportSide(input.head, evidence.head.artifacts),
        threshold: evidence.differences.threshold,
        tolerance: evidence.differences.tolerance,
        labels,
        counts: countLabels(labels),
        dir: "",
        markdown: "compare.md",
        timings: { totalMs: Math.round(input.totalMs) },
        command: "",
      } satisfies Omit<CompareReport, "redactions">,
      replacements,
      found,
    ),
    dir: redact(relative(input.root, dir) || ".", secrets, found),
    command: redact(input.command, secrets, found),
  };
  const errors = (["base", "head"] as const).flatMap((name) => {
    const error = evidence[name].shown?.attempt.error;
    return error === undefined ? [] : [{ side: name, error: redactDeep(error, replacements, found) }];
  });
  const markdown = redact(
    renderCompareMarkdown({ report: { ...redacted, redactions: redactionCounts(found) }, rows: evidence.rows, errors }),
    secrets,
    found,
  );
  const report: CompareReport = { ...redacted, redactions: redactionCounts(found) };
  await writeFile(join(dir, report.markdown), markdown);
  await writeFile(join(dir, "compare.json"), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
