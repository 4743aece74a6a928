import type { ExitCode, Verdict } from "../outcome/types.ts";
import type { ProofSummary, SummaryRow } from "./schema.ts";

/** The rows' order in every summary: by file, then by title, whichever order they were proved or merged in. */
export function sortRows(rows: ReadonlyArray<SummaryRow>): ReadonlyArray<SummaryRow> {
  const key = (row: SummaryRow) => `${row.file}\u0000${row.title ?? ""}`;
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The summary's verdict: the worst row wins (could not run, then not proved); no row at all is proved, with nothing to prove. */
export function overall(rows: ReadonlyArray<SummaryRow>): Pick<ProofSummary, "verdict" | "exitCode" | "counts" | "reason" | "redactions"> {
  const counts = {
    proved: rows.filter((row) => row.verdict === "proved").length,
    notProved: rows.filter((row) => row.verdict === "not-proved").length,
    couldNotRun: rows.filter((row) => row.verdict === "could-not-run").length,
  };
  const [verdict, exitCode]: [Verdict, ExitCode] =
    counts.couldNotRun > 0 ? ["could-not-run", 2] : counts.notProved > 0 ? ["not-proved", 1] : ["proved", 0];
  const parts = [
    `${counts.proved} of ${rows.length} scenario${rows.length === 1 ? "" : "s"} proved`,
    ...(counts.notProved > 0 ? [`${counts.notProved} not proved`] : []),
    ...(counts.couldNotRun > 0 ? [`${counts.couldNotRun} could not run`] : []),
  ];
  // Rows of some summary.json files lack `redactions`, whatever the type says.
  const redactions = {
    environment: rows.reduce((sum, row) => sum + (row.redactions?.environment ?? 0), 0),
    secretShaped: rows.reduce((sum, row) => sum + (row.redactions?.secretShaped ?? 0), 0),
  };
  return { verdict, exitCode, counts, reason: `${parts.join(", ")}.`, redactions };
}
