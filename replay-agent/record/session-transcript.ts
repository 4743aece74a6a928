import { renameSync, writeFileSync } from "node:fs";
import * as Effect from "effect/Effect";
import { RecordOutputError } from "../errors.ts";
import { formatNdjsonLine } from "../wire/ndjson.ts";
import { orderedLines, type LaneBlock, type StampedLine } from "./lane-order.ts";
import { checkNewTranscript, type RecordedLine, type RecordingCounts, type TranscriptFile } from "./transcript-file.ts";

/** A request as the recorder saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

/** How a recording writes a request: the meta line (of the first request) and its expect_outbound line, both without a lane. */
export interface RequestLines {
  readonly meta: (request: SeenRequest, userAgent: string | undefined) => Effect.Effect<RecordedLine>;
  readonly request: (request: SeenRequest) => RecordedLine;
}

/** One exchange of a session, from the moment its request came: its lane, and the lines it records there. */
export interface SessionExchange {
  /** Records its request, in its lane (and the meta line before the first request). */
  readonly begin: (request: SeenRequest, userAgent: string | undefined) => Effect.Effect<void, RecordOutputError>;
  /** Appends each line of its answer. */
  readonly file: TranscriptFile;
  /** Records its request as still unanswered when the recorder stopped: its expect_outbound, held open. */
  readonly unanswered: (request: SeenRequest, userAgent: string | undefined) => Effect.Effect<void, RecordOutputError>;
  /** The app closed its connection before the answer ended: a dropped answer is recorded as held open. */
  readonly appClosed: () => void;
  /** The exchange is over: its lane takes the next request. */
  readonly close: () => void;
}

/** A recording of exchanges that overlap: each in a lane of its own while it lasts, ordered across lanes as the recorder saw them. */
export interface SessionTranscript {
  /** Starts an exchange as its request comes, in lane `lane`, or `<lane>-2`, `<lane>-3`, … while that lane is answering. */
  readonly open: (lane: string) => SessionExchange;
  readonly counts: () => RecordingCounts;
  /** The recorder is stopping: the answers it cuts short now are recorded as held open. */
  readonly stopping: () => void;
}

interface Block extends LaneBlock {
  readonly lines: Array<StampedLine>;
}

/**
 * A session recorded to `path`. Every line is on disk as soon as it is seen: the whole file is
 * written again (to a file beside it, then renamed over it) each time a line is added, since a
 * long-lived answer (OpenCode's event stream) grows in the middle of the transcript while later
 * exchanges come and go. Exchanges are written in the order their requests came; see
 * `orderedLines` for the marks and waits between lanes.
 */
export const openSessionTranscript = (path: string, lines: RequestLines): Effect.Effect<SessionTranscript, RecordOutputError> =>
  Effect.gen(function* () {
    yield* checkNewTranscript(path);
    let clock = 0;
    let meta: RecordedLine | undefined;
    let stopping = false;
    let frames = 0;
    const blocks: Array<Block> = [];
    const busy = new Set<string>();
    const formatted = new WeakMap<RecordedLine, string>();
    const format = (line: RecordedLine): string => {
      const known = formatted.get(line);
      if (known !== undefined) return known;
      const text = formatNdjsonLine(line);
      formatted.set(line, text);
      return text;
    };
    const write = () =>
      Effect.try({
        try: () => {
          const text = [...(meta === undefined ? [] : [meta]), ...orderedLines(blocks)].map(format).join("");
          writeFileSync(`${path}.partial`, text);
          renameSync(`${path}.partial`, path);
        },
        catch: (error) => new RecordOutputError({ file: path, detail: error instanceof Error ? error.message : String(error) }),
      });
    const counts = () => ({ requests: blocks.length, frames });
    const open = (base: string): SessionExchange => {
      let lane = base;
      for (let next = 2; busy.has(lane); next++) lane = `${base}-${next}`;
      busy.add(lane);
      const arrived = clock++;
      let block: Block | undefined;
      let appGone = false;
      const begin = (request: SeenRequest, userAgent: string | undefined) =>
        Effect.gen(function* () {
          meta ??= yield* lines.meta(request, userAgent);
          const { type, ...line } = lines.request(request);
          const started: Block = { lane, lines: [{ stamp: arrived, line: lane === "main" ? { type, ...line } : { type, lane, ...line } }] };
          block = started;
          const after = blocks.findIndex((other) => (other.lines[0]?.stamp ?? 0) > arrived);
          blocks.splice(after === -1 ? blocks.length : after, 0, started);
          yield* write();
        });
      const append = (line: RecordedLine) =>
        Effect.suspend(() => {
          if (block === undefined) return Effect.void;
          const kept = line.type === "disconnect" && (stopping || appGone) ? { type: "hold" } : line;
          block.lines.push({ stamp: clock++, line: kept });
          if (kept.type === "emit_inbound" && !("head" in kept)) frames++;
          return write();
        });
      return {
        begin,
        file: { append, counts },
        unanswered: (request, userAgent) => begin(request, userAgent).pipe(Effect.andThen(append({ type: "hold" }))),
        appClosed: () => {
          appGone = true;
        },
        close: () => {
          busy.delete(lane);
        },
      };
    };
    return {
      open,
      counts,
      stopping: () => {
        stopping = true;
      },
    };
  });
