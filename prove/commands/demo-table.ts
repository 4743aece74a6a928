import { markdownTable } from "markdown-table";
import type { Ran } from "../engine/run.ts";
import type { ProofReport } from "../report/schema.ts";
import { formatDuration } from "../outcome/durations.ts";
import type { ReportSide } from "../report/schema.ts";

/** One bug proved by `demo all`. */
export interface DemoRow {
  readonly bug: string;
  readonly result: Ran<ProofReport>;
  /** From the start of its sandbox to its report. */
  readonly durationMs: number;
}

/** "failed (assertion)", "passed", or every attempt's when it ran more than once. */
function outcome(side: ReportSide | undefined): string {
  if (side === undefined || side.attempts.length === 0) return "not run";
  return side.attempts
    .map((attempt) => (attempt.error === undefined ? attempt.outcome : `${attempt.outcome} (${attempt.error.kind})`))
    .join(", ");
}

/** `demo all`'s summary: one row per bug with its verdict, each side's outcome and the time it took. */
export function demoTable(rows: ReadonlyArray<DemoRow>): string {
  return markdownTable([
    ["bug", "verdict", "base", "head", "time"],
    ...rows.map(({ bug, result, durationMs }) => [
      bug,
      result.report === undefined ? `could-not-run (exit ${result.exitCode})` : result.report.verdict,
      outcome(result.report?.base),
      outcome(result.report?.head),
      formatDuration(durationMs),
    ]),
  ]);
}
