import type { ClassifiedAttempt } from "../outcome/classify.ts";
import { isShaOf } from "../outcome/ref-label.ts";
import type { SideName } from "../outcome/types.ts";
import { copySideArtifacts, type SideArtifacts } from "./artifacts.ts";
import { addDifferences, type DifferenceSettings } from "./differences.ts";
import { redact, type Redactions, type Replacement } from "./redact.ts";
import { screenshotRows, type ComparisonRow } from "./rows.ts";
import type { ReportDifferences, ReportSide } from "./schema.ts";

/** What a report folder is made from, for a proof and for a comparison alike. */

export interface SideEvidence {
  readonly ref: string;
  readonly commit: { readonly sha: string; readonly subject: string } | undefined;
  readonly attempts: ReadonlyArray<ClassifiedAttempt>;
}

/** The attempt a report shows for a side: the first that did not pass, else the first. */
export function shown(side: SideEvidence): ClassifiedAttempt | undefined {
  return side.attempts.find((attempt) => attempt.attempt.outcome !== "passed") ?? side.attempts[0];
}

/** `value` with `redact` applied to every string in it. */
export function redactDeep<T>(value: T, replacements: ReadonlyArray<Replacement>, found: Redactions): T {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
    typeof item === "string" ? redact(item, replacements, found) : item,
  ) as T;
}

/** A side as report.json holds it. */
export function reportSide(side: SideEvidence, artifacts: SideArtifacts): ReportSide {
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

/** "base 1a2b3c4 (main) Add the cart": a side's column title in comparison.png. */
export const columnTitle = (name: SideName, side: SideEvidence) =>
  `${name} ${side.commit?.sha.slice(0, 7) ?? "?"}${isShaOf(side.ref, side.commit?.sha) ? "" : ` (${side.ref})`}${side.commit === undefined ? "" : ` ${side.commit.subject}`}`;

export interface CopiedEvidence {
  readonly base: { readonly shown: ClassifiedAttempt | undefined; readonly artifacts: SideArtifacts };
  readonly head: { readonly shown: ClassifiedAttempt | undefined; readonly artifacts: SideArtifacts };
  /** The screenshot table, each label both sides reached with its difference (and, with `failureRows`, a failure beside a label with its own). */
  readonly rows: ReadonlyArray<ComparisonRow>;
  readonly differences: ReportDifferences;
}

const noArtifacts: SideArtifacts = { screenshots: [] };

/**
 * Copies each side's shown attempt's evidence into `dir` (redacted into `found`), then builds the
 * screenshot table with its difference images (see `DifferenceSettings`).
 */
export async function copyEvidence(input: {
  readonly dir: string;
  readonly base: SideEvidence;
  readonly head: SideEvidence;
  readonly replacements: ReadonlyArray<Replacement>;
  readonly found: Redactions;
  readonly settings?: DifferenceSettings;
}): Promise<CopiedEvidence> {
  const { dir, replacements, found } = input;
  const copy = async (name: SideName, side: SideEvidence) => {
    const attempt = shown(side);
    const artifacts = attempt === undefined ? noArtifacts : await copySideArtifacts(name, attempt.artifacts, dir, replacements, found);
    return { shown: attempt, artifacts };
  };
  const base = await copy("base", input.base);
  const head = await copy("head", input.head);
  const { rows, differences } = await addDifferences(dir, screenshotRows(base.artifacts, head.artifacts), input.settings);
  return { base, head, rows, differences };
}
