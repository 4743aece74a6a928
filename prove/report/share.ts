import type { ReportDifference } from "./schema.ts";

/** A share of pixels (0..1) as a person reads it: "0 %", "< 0.01 %", "0.1 %", "5.12 %". */
export function formatShare(share: number): string {
  if (share === 0) return "0 %";
  const percent = share * 100;
  if (percent < 0.01) return "< 0.01 %";
  return `${percent.toFixed(2).replace(/\.?0+$/, "")} %`;
}

/** "changed, 5.12 % of pixels" or "unchanged, 0 % of pixels": compare's verdict for a label against its threshold, and how much changed. */
export const describeDifference = (difference: Pick<ReportDifference, "changed" | "changedShare">) =>
  `${difference.changed ? "changed" : "unchanged"}, ${formatShare(difference.changedShare)} of pixels`;

/**
 * "5.12 % of pixels changed", "< 0.01 % of pixels changed" or "no pixel changed": how much of a label changed between a
 * proof's sides. They differ by the bug, so a small share is shown as it is, not called unchanged: a changed price can be
 * under compare's threshold (its `changed` is in report.json).
 */
export const describeShare = (difference: Pick<ReportDifference, "changedShare">) =>
  difference.changedShare === 0 ? "no pixel changed" : `${formatShare(difference.changedShare)} of pixels changed`;
