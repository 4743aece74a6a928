import type { Provider } from "./providers.ts";
import type { Pace } from "./schema.ts";
import type { Transcript } from "./transcript.ts";

/** One lane of a transcript: its name, how many expect_outbound lines it holds, and how many of them are optional. */
export interface LaneSummary {
  readonly name: string;
  readonly requests: number;
  readonly optional: number;
}

/** What `replay-agent check` reports about a valid transcript. */
export interface TranscriptSummary {
  readonly provider: Provider;
  readonly model: string | null;
  /** The meta line's pace, when it sets one. */
  readonly pace: Pace | null;
  readonly requests: number;
  readonly frames: number;
  /** Pause lines and pauses inside a frame's cuts, in file order. */
  readonly pauses: ReadonlyArray<{ readonly name: string; readonly line: number }>;
  /** Every lane but the main one when there are others; an unordered expectation is a lane of its own. */
  readonly lanes: ReadonlyArray<LaneSummary>;
  /** Each mark line, with the lines of the waits for its name. */
  readonly marks: ReadonlyArray<{ readonly name: string; readonly line: number; readonly waits: ReadonlyArray<number> }>;
  /** The lines of the hold lines: answers kept open. */
  readonly holds: ReadonlyArray<number>;
}

export const summarizeTranscript = (transcript: Transcript): TranscriptSummary => {
  const lanes = new Map<string, { requests: number; optional: number }>();
  for (const entry of transcript.entries) {
    if (entry.type !== "expect_outbound") continue;
    const name = entry.unordered === true ? `unordered (line ${entry.line})` : (entry.lane ?? "main");
    const lane = lanes.get(name) ?? { requests: 0, optional: 0 };
    lane.requests++;
    if (entry.optional === true || entry.times === "any") lane.optional++;
    lanes.set(name, lane);
  }
  return {
    provider: transcript.meta.provider,
    model: transcript.meta.model ?? null,
    pace: transcript.meta.pace ?? null,
    requests: transcript.entries.filter((entry) => entry.type === "expect_outbound").length,
    frames: transcript.entries.filter((entry) => entry.type === "emit_inbound" && entry.head === undefined).length,
    pauses: transcript.entries.flatMap((entry) => {
      if (entry.type === "pause") return [{ name: entry.name, line: entry.line }];
      if (entry.type !== "emit_inbound") return [];
      return (entry.cut ?? []).flatMap((cut) => (typeof cut === "object" && "pause" in cut ? [{ name: cut.pause, line: entry.line }] : []));
    }),
    lanes: lanes.size === 1 && lanes.has("main") ? [] : [...lanes].map(([name, lane]) => ({ name, ...lane })),
    marks: transcript.entries.flatMap((entry) =>
      entry.type === "mark"
        ? [
            {
              name: entry.name,
              line: entry.line,
              waits: transcript.entries.flatMap((wait) => (wait.type === "wait" && wait.for === entry.name ? [wait.line] : [])),
            },
          ]
        : [],
    ),
    holds: transcript.entries.flatMap((entry) => (entry.type === "hold" ? [entry.line] : [])),
  };
};
