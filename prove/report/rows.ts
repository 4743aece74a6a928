import type { SideName } from "../outcome/types.ts";
import { mergeLabels } from "./labels.ts";
import type { ReportDifference, ReportFailureDifference, ReportScreenshot } from "./schema.ts";

/** One row of a report's screenshot table, and of comparison.png. */
export interface ComparisonRow {
  /** The label, or `failureCaption` for the row of failure screenshots no label row took. */
  readonly caption: string;
  readonly base: ReportScreenshot | undefined;
  readonly head: ReportScreenshot | undefined;
  /** The side whose cell holds its failure screenshot: the first label it did not reach, beside the other side's screenshot of it. */
  readonly failure?: SideName;
  /** Base against head, set only for a label both sides reached. */
  readonly difference?: ReportDifference;
  /** The failure screenshot of the side `failure` names against the other side's screenshot of this label; never with `difference`. */
  readonly failureDifference?: ReportFailureDifference;
  /** What an empty cell says instead of "not reached" (or "no failure" in the failure row). */
  readonly missing?: Partial<Record<SideName, string>>;
}

/** The caption of the last row, holding the failure screenshots no label's row took. */
export const failureCaption = "failure screenshot";

/** One side's pictures: its labelled screenshots in scenario order, and the one Playwright took when it failed. */
export interface SideShots {
  readonly screenshots: ReadonlyArray<ReportScreenshot>;
  readonly failureScreenshot?: ReportScreenshot;
}

/** The row for a side's failure screenshot: the first label after the last one it reached; -1 when there is none. */
function failureRow(rows: ReadonlyArray<ComparisonRow>, side: SideName): number {
  let last = -1;
  for (const [index, row] of rows.entries()) if (row[side] !== undefined) last = index;
  return rows.findIndex((row, index) => index > last && row[side] === undefined);
}

/**
 * A report's screenshot table: one row per label, in scenario order. A failure screenshot goes in
 * the row of the first label its side did not reach, else in a last row, `failureCaption`.
 */
export function screenshotRows(base: SideShots, head: SideShots): ComparisonRow[] {
  const shots = { base, head };
  const rows: ComparisonRow[] = mergeLabels(
    base.screenshots.map((shot) => shot.label),
    head.screenshots.map((shot) => shot.label),
  ).map((caption) => ({
    caption,
    base: base.screenshots.find((shot) => shot.label === caption),
    head: head.screenshots.find((shot) => shot.label === caption),
  }));
  const placed: Partial<Record<SideName, string>> = {};
  const labelled = [...rows];
  for (const side of ["base", "head"] as const) {
    const failure = shots[side].failureScreenshot;
    const at = failure === undefined ? -1 : failureRow(labelled, side);
    const row = rows[at];
    if (failure === undefined || row === undefined) continue;
    rows[at] = { ...row, [side]: failure, failure: side };
    placed[side] = row.caption;
  }
  const unplaced = (side: SideName) => (placed[side] === undefined ? shots[side].failureScreenshot : undefined);
  if (unplaced("base") !== undefined || unplaced("head") !== undefined) {
    const missing = Object.fromEntries(Object.entries(placed).map(([side, caption]) => [side, `in the ${caption} row`]));
    rows.push({
      caption: failureCaption,
      base: unplaced("base"),
      head: unplaced("head"),
      ...(Object.keys(missing).length > 0 ? { missing } : {}),
    });
  }
  return rows;
}

/** Whether a row compares the two sides' screenshots of one label (not a failure screenshot with either). */
export const bothReached = (
  row: ComparisonRow,
): row is ComparisonRow & { readonly base: ReportScreenshot; readonly head: ReportScreenshot } =>
  row.caption !== failureCaption && row.failure === undefined && row.base !== undefined && row.head !== undefined;

/** Whether a row holds a side's failure screenshot beside the other side's screenshot of its label, so the two can be compared. */
export const failureBesideLabel = (
  row: ComparisonRow,
): row is ComparisonRow & { readonly failure: SideName; readonly base: ReportScreenshot; readonly head: ReportScreenshot } =>
  row.caption !== failureCaption && row.failure !== undefined && row.base !== undefined && row.head !== undefined;

/** Whether a row's two screenshots are the same size, so a page's failure screenshot is not compared with an element's. */
export const sameView = (row: { readonly base: ReportScreenshot; readonly head: ReportScreenshot }): boolean =>
  row.base.width === row.head.width && row.base.height === row.head.height;

/** A row's difference image: its label's, or its failure screenshot's against the other side's screenshot of the label. */
export const rowDifference = (row: ComparisonRow): ReportDifference | undefined => row.difference ?? row.failureDifference;

/** Whether a row has a difference image. */
export const hasDifference = (row: ComparisonRow) => rowDifference(row) !== undefined;

/** What a cell without a screenshot says. */
export function emptyCell(row: ComparisonRow, side: SideName): string {
  return row.missing?.[side] ?? (row.caption === failureCaption ? "no failure" : "not reached");
}

/** What a cell holding a side's failure screenshot in a label's row says under it. */
export const failureNote = "failure screenshot: failed before this step";
