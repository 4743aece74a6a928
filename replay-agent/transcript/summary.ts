import type { Provider } from "./providers.ts";
import type { Transcript } from "./transcript.ts";

/** What `replay-agent check` reports about a valid transcript. */
export interface TranscriptSummary {
  readonly provider: Provider;
  readonly model: string | null;
  readonly requests: number;
  readonly frames: number;
  readonly pauses: ReadonlyArray<{ readonly name: string; readonly line: number }>;
}

export const summarizeTranscript = (transcript: Transcript): TranscriptSummary => ({
  provider: transcript.meta.provider,
  model: transcript.meta.model ?? null,
  requests: transcript.entries.filter((entry) => entry.type === "expect_outbound").length,
  frames: transcript.entries.filter((entry) => entry.type === "emit_inbound").length,
  pauses: transcript.entries.flatMap((entry) => (entry.type === "pause" ? [{ name: entry.name, line: entry.line }] : [])),
});
