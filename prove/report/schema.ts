import type { PerfMode, PerfOutcome } from "../perf/stats.ts";
import type { Attempt, ExitCode, ReasonCode, SideName, Verdict } from "../outcome/types.ts";

/** report.json, schema `scenario-proof/v1`; docs/report-json.md describes every field. */

export interface ReportScreenshot {
  readonly label: string;
  /** Relative to the report folder. */
  readonly path: string;
  readonly width: number;
  readonly height: number;
}

/** Base's and head's screenshots of one label compared pixel by pixel: the difference image and how much changed. */
export interface ReportDifference {
  readonly label: string;
  /** `images/diff-<label>.png`, relative to the report folder: head dimmed to grey, every changed pixel magenta. */
  readonly path: string;
  /** The difference image's size: the larger width and the larger height of the two screenshots. */
  readonly width: number;
  readonly height: number;
  readonly changedPixels: number;
  /** changedPixels over width × height, 0..1. */
  readonly changedShare: number;
  /** Whether changedShare is above the threshold. */
  readonly changed: boolean;
}

/** A side's failure screenshot compared with the other side's screenshot of its row's label; never in `labels`. */
export interface ReportFailureDifference extends ReportDifference {
  /** The label of the row: the other side's screenshot of it was compared. */
  readonly label: string;
  /** The side whose failure screenshot (`images/failure-<side>.png`) was compared. */
  readonly failure: SideName;
  /** `images/failure-<side>-diff.png`, relative to the report folder. */
  readonly path: string;
}

/** Every label both sides reached, compared, and each failure screenshot beside a label, with the settings that decided changed or unchanged. */
export interface ReportDifferences {
  /** The share of changed pixels at or below which a label counts as unchanged. */
  readonly threshold: number;
  /** How far (0..255) a pixel's channel may move before the pixel counts as changed. */
  readonly tolerance: number;
  /** In the table's order; empty when no label was reached by both sides. */
  readonly labels: ReadonlyArray<ReportDifference>;
  /** Failure screenshots against the other side's shot of their row's label, in table order; absent from some v1 reports. */
  readonly failures?: ReadonlyArray<ReportFailureDifference>;
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

/** One Playwright run of a side, in ms; the run's parts are null when no run was made. */
export interface RunTimings {
  /** The whole run, wall time. */
  readonly runMs: number | null;
  /** The run outside the test: the runner, its worker and the browser starting, and the teardown. */
  readonly runnerMs: number | null;
  /** The app's boot until ready, part of the test's time; null when the app did not come up. */
  readonly bootMs: number | null;
  /** The test as Playwright measured it, the app's boot included. */
  readonly testMs: number;
}

/** One side's steps, in ms; null for a step that did not happen. */
export interface SideTimings {
  readonly worktreeMs: number | null;
  /** The install; for a side that hard-linked the other side's, the copy. */
  readonly installMs: number | null;
  readonly buildMs: number | null;
  readonly runs: ReadonlyArray<RunTimings>;
}

/** Where a proof's time went, in ms. The sides run at once unless --sequential, so their steps overlap. */
export interface ReportTimings {
  /** From the start of the proof until its report was written. */
  readonly totalMs: number;
  /** Listing the scenario with Playwright and reading the config; null when the proof stopped before. */
  readonly listingMs: number | null;
  readonly base: SideTimings;
  readonly head: SideTimings;
  /** Writing the report folder: evidence, screenshots, difference images and comparison.png. */
  readonly reportMs: number;
}

/** An interval of head ÷ base. */
export interface ReportInterval {
  /** 0.95 for a 95 % interval. */
  readonly confidence: number;
  readonly low: number;
  readonly high: number;
}

/** A performance proof's (--faster, --not-slower) numbers: docs/report-json.md and docs/performance-proofs.md. */
export interface ReportPerformance {
  readonly mode: PerfMode;
  /** As typed: `task`, or `<label>:<metric>`. */
  readonly metric: string;
  /** In percent. */
  readonly margin: number;
  readonly maxSamples: number;
  readonly cpuSlowdown: number | null;
  /** Null when a run ended the proof before the statistics decided (the verdict says which and why). */
  readonly outcome: PerfOutcome | null;
  /** Every counted sample's value, per side, in the order the side ran them (warm-ups left out). */
  readonly samples: { readonly base: ReadonlyArray<number>; readonly head: ReadonlyArray<number> };
  /** Which side each sample was, in the order they ran. */
  readonly order: ReadonlyArray<SideName>;
  readonly median: { readonly base: number | null; readonly head: number | null };
  /** head's mean ÷ base's mean; null with fewer than two samples a side or a base whose mean is 0. */
  readonly ratio: number | null;
  /** The 95 % interval of `ratio`. */
  readonly interval: ReportInterval | null;
  /** The 99 % interval the proof stopped on; null when a run ended it. */
  readonly decidedOn: ReportInterval | null;
  /** `images/performance.png`: every sample of both sides; null when there were none. */
  readonly plot: string | null;
  /** Each side's warm-up run's traces, gzipped (one per measured block), relative to the report folder: only the warm-ups are traced. */
  readonly traces: { readonly base: ReadonlyArray<string>; readonly head: ReadonlyArray<string> };
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
  /** Each label both sides reached, base against head, and the failure screenshots' (`failures`); absent from some v1 reports. */
  readonly differences: ReportDifferences;
  readonly markdown: string;
  readonly timings: ReportTimings;
  readonly command: string;
  /** How many distinct values were taken out of the folder's files: secret variables' values, and credential-shaped strings. */
  readonly redactions: { readonly environment: number; readonly secretShaped: number };
  /** Only in a performance proof's report (--faster, --not-slower); added within `scenario-proof/v1`. */
  readonly performance?: ReportPerformance;
}
