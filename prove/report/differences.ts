import { basename, join } from "node:path";
import { defaultThreshold, defaultTolerance } from "./diff-defaults.ts";
import { diffScreenshots } from "./diff-image.ts";
import { bothReached, type ComparisonRow } from "./rows.ts";
import type { ReportDifferences, ReportScreenshot } from "./schema.ts";

export interface DifferenceSettings {
  readonly threshold?: number;
  readonly tolerance?: number;
}

/** `images/diff-<label>.png` for head's `images/head-<label>.png`: as unique as head's own names. */
const diffPath = (head: ReportScreenshot) => `images/diff-${basename(head.path).replace(/^head-/, "")}`;

/**
 * Compares base's and head's screenshot of every label both reached, writing each difference
 * image into the report folder `dir`; returns the rows with their differences, and the differences.
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
    if (!bothReached(row)) {
      compared.push(row);
      continue;
    }
    const path = diffPath(row.head);
    const diff = await diffScreenshots({ base: join(dir, row.base.path), head: join(dir, row.head.path), out: join(dir, path), threshold, tolerance });
    const difference = {
      label: row.caption,
      path,
      width: Math.max(diff.base.width, diff.head.width),
      height: Math.max(diff.base.height, diff.head.height),
      changedPixels: diff.changedPixels,
      changedShare: diff.changedShare,
      changed: diff.changed,
    };
    compared.push({ ...row, difference });
  }
  const labels = compared.flatMap((row) => (row.difference === undefined ? [] : [row.difference]));
  return { rows: compared, differences: { threshold, tolerance, labels } };
}
