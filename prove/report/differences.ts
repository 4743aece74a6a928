import { basename, join } from "node:path";
import type { SideName } from "../outcome/types.ts";
import { defaultThreshold, defaultTolerance } from "./diff-defaults.ts";
import { diffScreenshots } from "./diff-image.ts";
import { bothReached, failureBesideLabel, sameView, type ComparisonRow } from "./rows.ts";
import type { ReportDifference, ReportDifferences, ReportScreenshot } from "./schema.ts";

export interface DifferenceSettings {
  readonly threshold?: number;
  readonly tolerance?: number;
  /** Also compare a failure screenshot in a label's row with the other side's screenshot of that label (a proof's report does). */
  readonly failureRows?: boolean;
}

/** `images/diff-<label>.png` for head's `images/head-<label>.png`: as unique as head's own names. */
const diffPath = (head: ReportScreenshot) => `images/diff-${basename(head.path).replace(/^head-/, "")}`;

/** `images/failure-<side>-diff.png`: one failure a side, and no screenshot or label's difference begins with `failure-`. */
const failureDiffPath = (side: SideName) => `images/failure-${side}-diff.png`;

/** Compares a row's base cell with its head cell, writing the difference image at `path` in the report folder `dir`. */
async function compareCells(
  dir: string,
  row: ComparisonRow & { readonly base: ReportScreenshot; readonly head: ReportScreenshot },
  path: string,
  threshold: number,
  tolerance: number,
): Promise<ReportDifference> {
  const diff = await diffScreenshots({
    base: join(dir, row.base.path),
    head: join(dir, row.head.path),
    out: join(dir, path),
    threshold,
    tolerance,
  });
  return {
    label: row.caption,
    path,
    width: Math.max(diff.base.width, diff.head.width),
    height: Math.max(diff.base.height, diff.head.height),
    changedPixels: diff.changedPixels,
    changedShare: diff.changedShare,
    changed: diff.changed,
  };
}

/**
 * Writes a difference image into `dir` for every label both sides reached and, with `failureRows`,
 * for a failure screenshot against a same-size screenshot in its row; returns the rows with them.
 */
export async function addDifferences(
  dir: string,
  rows: ReadonlyArray<ComparisonRow>,
  settings: DifferenceSettings = {},
): Promise<{ readonly rows: ComparisonRow[]; readonly differences: ReportDifferences }> {
  const threshold = settings.threshold ?? defaultThreshold;
  const tolerance = settings.tolerance ?? defaultTolerance;
  const compared: ComparisonRow[] = [];
  for (const row of rows) {
    if (bothReached(row)) {
      compared.push({ ...row, difference: await compareCells(dir, row, diffPath(row.head), threshold, tolerance) });
    } else if (settings.failureRows === true && failureBesideLabel(row) && sameView(row)) {
      const { label, ...difference } = await compareCells(dir, row, failureDiffPath(row.failure), threshold, tolerance);
      compared.push({ ...row, failureDifference: { label, failure: row.failure, ...difference } });
    } else {
      compared.push(row);
    }
  }
  const labels = compared.flatMap((row) => (row.difference === undefined ? [] : [row.difference]));
  const failures = compared.flatMap((row) => (row.failureDifference === undefined ? [] : [row.failureDifference]));
  return { rows: compared, differences: { threshold, tolerance, labels, failures } };
}
