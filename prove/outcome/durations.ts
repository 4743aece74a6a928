import type { Attempt } from "./types.ts";

/** "850ms", "12.9s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/**
 * An attempt's two durations, each named, the same in progress and in the report: "run 42.6s, of
 * which the test 12.9s" (the whole Playwright run, and the test inside it), or "after 3.2s" when
 * no Playwright run happened (an install that failed).
 */
export function describeDurations(attempt: Pick<Attempt, "durationMs" | "runMs">): string {
  return attempt.runMs === null
    ? `after ${formatDuration(attempt.durationMs)}`
    : `run ${formatDuration(attempt.runMs)}, of which the test ${formatDuration(attempt.durationMs)}`;
}
