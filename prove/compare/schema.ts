import type { ProofReport, ReportSide } from "../report/schema.ts";

/** compare.json, schema `scenario-compare/v1`: both sides' screenshots of a scenario, label by label. */

/** A label's verdict: its screenshots compared, or the side that alone reached it. */
export type LabelVerdict = "changed" | "unchanged" | "only-on-base" | "only-on-head";

/** Why a comparison ended as it did: `compared` (exit 0), or why it could not run (exit 2). */
export const compareReasonCodes = [
  "compared",
  "no-screenshots",
  "base-error",
  "head-error",
  "bad-ref",
  "bad-repo",
  "scenario-not-found",
  "ambiguous-scenario",
  "config-error",
  "interrupted",
] as const;

export type CompareReasonCode = (typeof compareReasonCodes)[number];

export interface CompareLabel {
  readonly label: string;
  readonly verdict: LabelVerdict;
  /** The side's screenshot, relative to the report folder; null when the side did not reach the label. */
  readonly base: string | null;
  readonly head: string | null;
  /** The difference image (head dimmed, changed pixels magenta); null unless both sides reached the label. */
  readonly difference: string | null;
  readonly changedPixels: number | null;
  /** changedPixels over the difference image's pixels, 0..1; null unless both sides reached the label. */
  readonly changedShare: number | null;
}

export interface CompareReport {
  readonly schema: "scenario-compare/v1";
  readonly exitCode: 0 | 2;
  readonly reasonCode: CompareReasonCode;
  readonly reason: string;
  readonly scenario: ProofReport["scenario"];
  readonly base: ReportSide;
  readonly head: ReportSide;
  /** The share of changed pixels at or below which a label is unchanged. */
  readonly threshold: number;
  /** How far (0..255) a pixel's channel may move before the pixel counts as changed. */
  readonly tolerance: number;
  /** Every label either side reached, in scenario order. */
  readonly labels: ReadonlyArray<CompareLabel>;
  readonly counts: { readonly changed: number; readonly unchanged: number; readonly onlyOnBase: number; readonly onlyOnHead: number };
  readonly dir: string;
  readonly markdown: "compare.md";
  readonly timings: { readonly totalMs: number };
  readonly command: string;
  readonly redactions: ProofReport["redactions"];
}
