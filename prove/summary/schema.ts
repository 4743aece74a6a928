import type { ExitCode, ReasonCode, Verdict } from "../outcome/types.ts";

/** summary.json, schema `scenario-proof-summary/v1`: one proof of several scenarios, or the merge of its shards. */

export interface SummaryCommit {
  readonly ref: string;
  /** Null when the ref did not resolve. */
  readonly sha: string | null;
  readonly subject: string | null;
}

export interface SummaryRow {
  /** The scenario file, relative to the invoking checkout, with forward slashes. */
  readonly file: string;
  /** The test's title (with its describe titles, joined by " › "); null when it could not be listed. */
  readonly title: string | null;
  readonly verdict: Verdict;
  readonly exitCode: ExitCode;
  readonly reasonCode: ReasonCode;
  readonly reason: string;
  /** The scenario's report folder, relative to the summary's folder, with forward slashes. */
  readonly dir: string;
  /** Its report.md, relative to the summary's folder. */
  readonly report: string;
  /** What its report folder's files had taken out, as its report.json counts it. */
  readonly redactions: Redactions;
}

/** Counts of what was taken out of report files: secret-looking environment variables, and credential-shaped strings. */
export interface Redactions {
  readonly environment: number;
  readonly secretShaped: number;
}

export interface ProofSummary {
  readonly schema: "scenario-proof-summary/v1";
  /** "proved" only when every scenario was proved; else "could-not-run" when any could not run, else "not-proved". */
  readonly verdict: Verdict;
  /** 0 when every scenario was proved, 2 when any could not run, else 1: the worst row wins. */
  readonly exitCode: ExitCode;
  /** One line: how many were proved, or why none could run. */
  readonly reason: string;
  readonly base: SummaryCommit;
  readonly head: SummaryCommit;
  /** Which slice of the scenario list this folder holds; null for a whole proof or a merge. */
  readonly shard: { readonly index: number; readonly total: number } | null;
  /** One row per scenario, sorted by file, then by title (see sortRows). */
  readonly scenarios: ReadonlyArray<SummaryRow>;
  readonly counts: { readonly proved: number; readonly notProved: number; readonly couldNotRun: number };
  /** The rows' redactions added up: a value taken out of two report folders counts twice. */
  readonly redactions: Redactions;
  readonly markdown: "summary.md";
  readonly timings: { readonly totalMs: number };
  /** The command that proves every scenario again, without --shard. */
  readonly command: string;
}
