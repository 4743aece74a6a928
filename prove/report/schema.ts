import type { Attempt, ExitCode, ReasonCode, Verdict } from "../outcome/types.ts";

/** report.json, schema `scenario-proof/v1`, as DESIGN.md lists it. */

export interface ReportScreenshot {
  readonly label: string;
  /** Relative to the report folder. */
  readonly path: string;
  readonly width: number;
  readonly height: number;
}

export interface ReportSide {
  readonly ref: string;
  /** Null when the ref did not resolve. */
  readonly sha: string | null;
  readonly subject: string | null;
  readonly attempts: ReadonlyArray<Attempt>;
  readonly screenshots: ReadonlyArray<ReportScreenshot>;
  /** Null when the side kept no trace (traces are kept on failure) or no server log. */
  readonly trace: string | null;
  readonly serverLog: string | null;
}

export interface ProofReport {
  readonly schema: "scenario-proof/v1";
  readonly verdict: Verdict;
  readonly exitCode: ExitCode;
  readonly reasonCode: ReasonCode;
  readonly reason: string;
  readonly scenario: { readonly file: string; readonly title: string | null; readonly sha256: string | null };
  readonly base: ReportSide;
  readonly head: ReportSide;
  readonly dir: string;
  /** Null when neither side took a screenshot. */
  readonly comparisonImage: string | null;
  readonly markdown: string;
  readonly timings: { readonly totalMs: number };
  readonly command: string;
  /**
   * What was taken out of the report folder's files, each distinct value counted once: values of
   * secret-looking environment variables (by variable) and credential-shaped strings.
   */
  readonly redactions: { readonly environment: number; readonly secretShaped: number };
}
