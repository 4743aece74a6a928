import { describeEntry } from "../transcript/describe.ts";
import type { ExpectOutbound, Pace } from "../transcript/schema.ts";
import type { Located, Transcript, TranscriptEntry } from "../transcript/transcript.ts";
import type { AnswerPiece, AnswerRun } from "./response-sink.ts";

/** What a step is, for status: the line it stands at, its type and a one-line summary. */
export interface StepPlace {
  readonly line: number;
  readonly type: string;
  readonly summary: string;
  /** The entries (indices into the transcript's entries) this step finishes playing. */
  readonly completes: ReadonlyArray<number>;
}

/**
 * One step of an answer: a run of pieces written without waiting, a pause held until resumed, a
 * delay, a mark reached, a wait until a mark is reached, or a hold that keeps the answer open.
 */
export type Step<Run> =
  | (StepPlace & { readonly kind: "run"; readonly prepared: Run })
  | (StepPlace & { readonly kind: "pause"; readonly name: string })
  | (StepPlace & { readonly kind: "delay"; readonly ms: number })
  | (StepPlace & { readonly kind: "mark"; readonly name: string })
  | (StepPlace & { readonly kind: "wait"; readonly mark: string })
  | (StepPlace & { readonly kind: "hold" });

/** One expect_outbound line and the steps of the answer it plays each time it matches. */
export interface PlannedExchange<Run> {
  readonly expect: Located<ExpectOutbound>;
  readonly entryIndex: number;
  readonly lane: string;
  /** How many matches it needs, and may take. */
  readonly min: number;
  readonly max: number;
  readonly steps: ReadonlyArray<Step<Run>>;
  /** Its entries, the expect_outbound line included. */
  readonly size: number;
}

/** A transcript as the runtime plays it: the opening (stdio lines before the first expect_outbound) and the exchanges. */
export interface Plan<Run> {
  readonly opening: ReadonlyArray<Step<Run>>;
  readonly exchanges: ReadonlyArray<PlannedExchange<Run>>;
  /** Every pause, pause lines and pauses inside a frame's cuts, in file order. */
  readonly pauses: ReadonlyArray<{ readonly name: string; readonly line: number }>;
}

export const mainLane = "main";

/**
 * How long the pace waits before an answer line, `frames` frames into its answer: before a frame
 * (streamed, or a WebSocket or stdio message) `firstTokenMs` for the first and 1000 /
 * `tokensPerSecond` for each later one, before a whole `response` `firstTokenMs`; nothing before
 * any other line, nor before a frame the one before it joins (they share a write).
 */
const paceBefore = (pace: Pace | undefined, entry: TranscriptEntry, frames: number, joined: boolean): number => {
  if (pace === undefined || entry.type !== "emit_inbound" || joined || entry.head !== undefined) return 0;
  const first = pace.firstTokenMs ?? 0;
  if (entry.response !== undefined) return first;
  return frames === 0 ? first : pace.tokensPerSecond === undefined ? 0 : 1000 / pace.tokensPerSecond;
};

/** The steps of consecutive answer lines: runs cut at every pause, delay, mark, wait and hold, at a frame's cuts that hold, and at the pace's waits. */
const stepsOf = <Run>(
  lines: ReadonlyArray<{ readonly index: number; readonly entry: TranscriptEntry }>,
  prepare: (run: AnswerRun) => Run,
  pace: Pace | undefined,
): Array<Step<Run>> => {
  const steps: Array<Step<Run>> = [];
  let pieces: Array<AnswerPiece> = [];
  let completes: Array<number> = [];
  /** The frames of this answer so far, and whether the last one joins the next. */
  let frames = 0;
  let joinNext = false;
  const flush = () => {
    const [first] = pieces;
    if (first !== undefined) {
      steps.push({
        kind: "run",
        prepared: prepare(pieces),
        line: first.entry.line,
        type: first.entry.type,
        summary: describeEntry(first.entry),
        completes,
      });
    }
    pieces = [];
    completes = [];
  };
  for (const { index, entry } of lines) {
    switch (entry.type) {
      case "expect_outbound":
        break;
      case "pause":
        flush();
        steps.push({ kind: "pause", name: entry.name, line: entry.line, type: "pause", summary: describeEntry(entry), completes: [index] });
        break;
      case "delay":
        flush();
        steps.push({ kind: "delay", ms: entry.ms, line: entry.line, type: "delay", summary: describeEntry(entry), completes: [index] });
        break;
      case "mark":
        flush();
        steps.push({ kind: "mark", name: entry.name, line: entry.line, type: "mark", summary: describeEntry(entry), completes: [index] });
        break;
      case "wait":
        flush();
        steps.push({ kind: "wait", mark: entry.for, line: entry.line, type: "wait", summary: describeEntry(entry), completes: [index] });
        break;
      case "hold":
        flush();
        steps.push({ kind: "hold", line: entry.line, type: "hold", summary: describeEntry(entry), completes: [index] });
        break;
      default: {
        const wait = paceBefore(pace, entry, frames, joinNext);
        if (wait > 0) {
          flush();
          const which = frames === 0 ? "first frame" : "frame";
          steps.push({
            kind: "delay",
            ms: wait,
            line: entry.line,
            type: "delay",
            summary: `pace ${Number(wait.toFixed(3))}ms (before the ${which} at line ${entry.line})`,
            completes: [],
          });
        }
        if (entry.type === "emit_inbound" && entry.head === undefined && entry.response === undefined) frames++;
        joinNext = entry.type === "emit_inbound" && entry.join === true;
        let from = 0;
        for (const cut of entry.type === "emit_inbound" ? (entry.cut ?? []) : []) {
          if (typeof cut === "number") continue;
          pieces.push({ entry, from, to: cut.at });
          flush();
          const inside = `inside the frame at line ${entry.line}, after byte ${cut.at}`;
          steps.push(
            "pause" in cut
              ? {
                  kind: "pause",
                  name: cut.pause,
                  line: entry.line,
                  type: "pause",
                  summary: `pause ${cut.pause} (${inside})`,
                  completes: [],
                }
              : {
                  kind: "delay",
                  ms: cut.delay,
                  line: entry.line,
                  type: "delay",
                  summary: `delay ${cut.delay}ms (${inside})`,
                  completes: [],
                },
          );
          from = cut.at;
        }
        pieces.push({ entry, from, to: undefined });
        completes.push(index);
      }
    }
  }
  flush();
  return steps;
};

/** Cuts `transcript` into its opening and exchanges, each answer's runs prepared once by `prepare`. */
export const planTranscript = <Run>(transcript: Transcript, prepare: (run: AnswerRun) => Run): Plan<Run> => {
  const groups: Array<{ readonly index: number; readonly entry: TranscriptEntry }[]> = [[]];
  transcript.entries.forEach((entry, index) => {
    if (entry.type === "expect_outbound") groups.push([]);
    groups.at(-1)?.push({ index, entry });
  });
  const [opening = [], ...answers] = groups;
  const exchanges = answers.flatMap((lines): Array<PlannedExchange<Run>> => {
    const head = lines[0];
    if (head === undefined || head.entry.type !== "expect_outbound") return [];
    const expect = head.entry;
    const max = expect.times === "any" ? Number.POSITIVE_INFINITY : (expect.times ?? 1);
    const min = expect.optional === true || expect.times === "any" ? 0 : max;
    const lane = expect.unordered === true ? `line ${expect.line}` : (expect.lane ?? mainLane);
    return [{ expect, entryIndex: head.index, lane, min, max, steps: stepsOf(lines, prepare, transcript.meta.pace), size: lines.length }];
  });
  const openingSteps = stepsOf(opening, prepare, transcript.meta.pace);
  const pauses = [...openingSteps, ...exchanges.flatMap((exchange) => exchange.steps)].flatMap((step) =>
    step.kind === "pause" ? [{ name: step.name, line: step.line }] : [],
  );
  return { opening: openingSteps, exchanges, pauses };
};
