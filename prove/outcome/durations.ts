import type { Attempt } from "./types.ts";

/** "850ms", "12.9s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** An attempt's durations, for progress and the report: "run 42.6s, of which the test 12.9s", or "after 3.2s" when no run happened. */
export function describeDurations(attempt: Pick<Attempt, "durationMs" | "runMs">): string {
  return attempt.runMs === null
    ? `after ${formatDuration(attempt.durationMs)}`
    : `run ${formatDuration(attempt.runMs)}, of which the test ${formatDuration(attempt.durationMs)}`;
}
