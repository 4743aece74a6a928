import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import { RecordOutputError } from "../errors.ts";
import { formatNdjsonLine } from "../wire/ndjson.ts";
import { makeLaneOrder, type LaneBlock, type StampedLine } from "./lane-order.ts";
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

/**
 * How long a whole answer (a response or a fail) waits before it is recorded and relayed: the
 * server wrote the events it published before the answer (OpenCode's `session.idle` before the
 * prompt's response), but they come on another connection, which the recorder may read a few
 * milliseconds later. Events the server wrote after the answer but read within this time are
 * recorded before it, the order the server promises anyway.
 */
const wholeAnswerSettle = Duration.millis(50);

interface Block extends LaneBlock {
  readonly lines: Array<StampedLine>;
}

/**
 * A session recorded to `path`. Every line is on disk as soon as it is seen. Exchanges are written
 * in the order their requests came (see `makeLaneOrder` for the marks and waits between lanes), so
 * a long-lived answer (OpenCode's event stream) grows in the middle of the file while later
 * exchanges come and go: each time a line is added, the file is written again from the first
 * line that changed (the new line, and the exchanges after its own).
 */
export const openSessionTranscript = (path: string, lines: RequestLines): Effect.Effect<SessionTranscript, RecordOutputError> =>
  Effect.gen(function* () {
    yield* checkNewTranscript(path);
    let clock = 0;
    let meta: string | undefined;
    let stopping = false;
    let frames = 0;
    const blocks: Array<Block> = [];
    const busy = new Set<string>();
    const order = makeLaneOrder();
    /** What each line is written as (its waits, itself, its mark), until its order changes. */
    const chunks = new Map<StampedLine, string>();
    const chunkOf = (block: Block, index: number): string => {
      const entry = block.lines[index];
      if (entry === undefined) return "";
      const known = chunks.get(entry);
      if (known !== undefined) return known;
      const text = order
        .render(entry, block.lines[index + 1])
        .map(formatNdjsonLine)
        .join("");
      chunks.set(entry, text);
      return text;
    };
    /** The chunks on disk, and the byte offset each one starts at. */
    let written: Array<string> = [];
    let offsets: Array<number> = [0];
    const write = () =>
      Effect.try({
        try: () => {
          const pieces = [
            ...(meta === undefined ? [] : [meta]),
            ...blocks.flatMap((block) => block.lines.map((_, index) => chunkOf(block, index))),
          ];
          let same = 0;
          while (same < written.length && same < pieces.length && written[same] === pieces[same]) same++;
          const from = offsets[same] ?? 0;
          const fd = openSync(path, written.length === 0 ? "w" : "r+");
          try {
            ftruncateSync(fd, from);
            writeSync(fd, pieces.slice(same).join(""), from);
          } finally {
            closeSync(fd);
          }
          offsets = offsets.slice(0, same + 1);
          for (const piece of pieces.slice(same)) offsets.push((offsets.at(-1) ?? 0) + Buffer.byteLength(piece));
          written = pieces;
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
          meta ??= formatNdjsonLine(yield* lines.meta(request, userAgent));
          const { type, ...line } = lines.request(request);
          const started: Block = { lane, lines: [{ stamp: arrived, line: lane === "main" ? { type, ...line } : { type, lane, ...line } }] };
          block = started;
          const after = blocks.findIndex((other) => (other.lines[0]?.stamp ?? 0) > arrived);
          blocks.splice(after === -1 ? blocks.length : after, 0, started);
          // Lines of other lanes came since the request did: they are ordered again, now after it.
          order.rebuild(blocks);
          chunks.clear();
          yield* write();
        });
      const append = (line: RecordedLine) =>
        Effect.gen(function* () {
          if (block === undefined) return;
          // The events the server wrote before this answer may be read on their own connection a little after it.
          if (line.type === "fail" || (line.type === "emit_inbound" && "response" in line)) yield* Effect.sleep(wholeAnswerSettle);
          const entry = { stamp: clock++, line: line.type === "disconnect" && (stopping || appGone) ? { type: "hold" } : line };
          const before = block.lines.at(-1);
          block.lines.push(entry);
          for (const changed of [entry, ...(before === undefined ? [] : [before]), ...order.add(block.lane, entry)]) chunks.delete(changed);
          if (entry.line.type === "emit_inbound" && !("head" in entry.line)) frames++;
          yield* write();
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
