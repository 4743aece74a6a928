import type { Attempt } from "../outcome/types.ts";
import type { ReportScreenshot } from "../report/schema.ts";
import type { CommitDetails } from "./commits.ts";

/** bisect.json, schema `scenario-bisect/v1`; docs/bisect.md lists every field. */

/**
 * `found`: one commit changed the outcome (exit 0). `range`: skipped commits hide which of a few
 * did (exit 2). `unchanged`: both ends have the same outcome (exit 1). `could-not-run`: an end
 * could not run or was flaky, so there is nothing to search for (exit 2).
 */
export type BisectResultKind = "found" | "range" | "unchanged" | "could-not-run";

/** `introduced`: old passes and new fails (the commit broke it). `fixed`: old fails and new passes. */
export type Direction = "introduced" | "fixed";

/** An end's or a step's outcome: `error` and `flaky` only for an end that could not give one. */
export type EndOutcome = "pass" | "fail" | "error" | "flaky";

export interface BisectEnd extends CommitDetails {
  /** The ref as typed. */
  readonly ref: string;
  readonly outcome: EndOutcome;
  /** Why it gave no outcome, for `error` and `flaky`; else null. */
  readonly why: string | null;
  readonly attempts: ReadonlyArray<Attempt>;
}

export interface BisectStep extends CommitDetails {
  /** 1 for the first commit probed after both ends ran. */
  readonly step: number;
  readonly outcome: "pass" | "fail" | "skip";
  /** Why a skipped commit was skipped (could not run, or flaky under --repeat); else null. */
  readonly why: string | null;
  readonly attempts: ReadonlyArray<Attempt>;
  /** The commits that might still be the first with the new outcome after this step. */
  readonly commitsLeft: number;
  /** About how many steps were left after this one. */
  readonly stepsLeft: number;
}

/** One screenshot label: the last commit with the old outcome beside the first with the new. */
export interface BisectScreenshotRow {
  readonly label: string;
  readonly lastOld: ReportScreenshot | null;
  readonly firstNew: ReportScreenshot | null;
}

export interface BisectReport {
  readonly schema: "scenario-bisect/v1";
  readonly result: BisectResultKind;
  readonly exitCode: 0 | 1 | 2;
  /** Null when nothing changed or an end could not run. */
  readonly direction: Direction | null;
  readonly reason: string;
  readonly scenario: { readonly file: string; readonly title: string; readonly sha256: string };
  readonly old: BisectEnd;
  readonly new: BisectEnd;
  /** The first commit with the new outcome; null unless `found`. */
  readonly commit: CommitDetails | null;
  /** The last commit known to have the old outcome (--old or a step); null for `unchanged` and `could-not-run`. */
  readonly lastOld: CommitDetails | null;
  /** `found`: the commit; `range`: the commits one of which is first, oldest first, the last one probed; else empty. */
  readonly candidates: ReadonlyArray<CommitDetails>;
  /** How many commits follow --old up to --new on --new's first-parent line. */
  readonly commits: number;
  /** The most steps the search could take: ⌈log2 commits⌉ plus the skipped ones. */
  readonly maxSteps: number;
  readonly repeat: number;
  readonly steps: ReadonlyArray<BisectStep>;
  /** The skipped commits, oldest first, with why. */
  readonly skipped: ReadonlyArray<CommitDetails & { readonly why: string }>;
  /** Screenshots of the last commit with the old outcome beside the first with the new; empty rows when there is no pair. */
  readonly screenshots: {
    readonly lastOld: string | null;
    readonly firstNew: string | null;
    readonly rows: ReadonlyArray<BisectScreenshotRow>;
  };
  /** The folder, relative to the invoking checkout. */
  readonly dir: string;
  readonly markdown: "bisect.md";
  readonly command: string;
  readonly timings: { readonly totalMs: number };
  readonly redactions: { readonly environment: number; readonly secretShaped: number };
}
