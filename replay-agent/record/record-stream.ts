import * as Effect from "effect/Effect";
import type { RecordOutputError } from "../errors.ts";
import type { HttpResponseWriter } from "../wire/http-response.ts";
import { frameBytes, type StreamKind } from "../wire/stream-frame.ts";
import type { RawBlock } from "./event-blocks.ts";
import { appHeaders, describe, dropped, type ExchangeContext } from "./exchange-context.ts";
import { frameCuts } from "./frame-cuts.ts";
import { recordedFrameOf } from "./recorded-frame.ts";
import { scannerOf } from "./stream-blocks.ts";
import { appendDelay, makeChunkTimes, now, type Timeline } from "./timeline.ts";
import type { RecordedLine } from "./transcript-file.ts";

/** Whether one of `boundaries` lies from `from` to `to`, both included. */
const boundaryBetween = (boundaries: ReadonlyArray<number>, from: number, to: number): boolean =>
  boundaries.some((at) => at >= from && at <= to);

/**
 * Streams an answer of `kind` (server-sent events, NDJSON lines or event-stream messages): its
 * status and headers are appended as a `head` line, each chunk reaches the app as it arrives,
 * and each frame is appended as it completes, with where
 * the upstream's chunks ended: a chunk boundary inside the event becomes a `cut` offset, and an
 * event that ended in the same chunk the next one began in gets `join`, so the recording replays
 * in the writes the upstream made. An event whose chunk went on into the next event is held
 * until that one completes (its `join` is known then), or until the stream ends or is cut short.
 * With a `timeline`, the time between the upstream's chunks is kept too: a `delay` line before a
 * frame whose first chunk came later than the chunk before it, and a cut's `delay` where a chunk
 * boundary inside a frame took time.
 */
export const relayStream = (
  context: ExchangeContext,
  response: Response,
  app: HttpResponseWriter,
  kind: StreamKind,
  timeline: Timeline | undefined,
) =>
  Effect.gen(function* () {
    yield* context.file.append({
      type: "emit_inbound",
      head: { status: response.status, headers: context.redactor.headers(response.headers) },
    });
    app.writeHead(response.status, appHeaders(response.headers));
    app.flushHeaders();
    const body = response.body;
    if (body === null) {
      app.end();
      return;
    }
    const reader = body.getReader();
    const scanner = scannerOf(kind);
    /** Where the upstream's chunks ended so far, as byte offsets into the stream; the ones still needed. */
    let boundaries: Array<number> = [];
    let position = 0;
    const times = makeChunkTimes();
    /** The last event read, not appended yet: whether it joins the next depends on that one. */
    let held: { readonly line: RecordedLine; readonly end: number } | undefined;
    const release = (join: boolean): Effect.Effect<void, RecordOutputError> => {
      if (held === undefined) return Effect.void;
      const line = join ? { ...held.line, join: true } : held.line;
      held = undefined;
      return context.file.append(line);
    };
    const record = (blocks: ReadonlyArray<RawBlock>) =>
      Effect.forEach(
        blocks,
        (block) =>
          Effect.gen(function* () {
            const frame = recordedFrameOf(kind, block.bytes, context.redactor);
            if (frame === undefined) return;
            if (typeof frame === "string") return context.log(`replay-agent: ${frame}`);
            if (held !== undefined) yield* release(!boundaryBetween(boundaries, held.end, block.start));
            const inside = boundaries.filter((at) => at > block.start && at < block.end).map((at) => at - block.start);
            if (timeline !== undefined) yield* appendDelay(context.file, timeline.until(times.at(block.start)));
            const delays = timeline === undefined ? [] : inside.map((offset) => timeline.until(times.at(block.start + offset)));
            const cut = inside.length === 0 ? {} : { cut: frameCuts(block.bytes, frameBytes(frame.frame), inside, delays) };
            held = { line: { type: "emit_inbound", ...frame.line, ...cut }, end: block.end };
          }),
        { discard: true },
      );
    const relay = Effect.gen(function* () {
      for (;;) {
        const next = yield* Effect.promise(() =>
          reader.read().then(
            (result) => result,
            (error: unknown) => ({ failed: error }),
          ),
        );
        if ("failed" in next) {
          context.log(`replay-agent: the stream was cut off (${describe(next.failed)})`);
          yield* release(false);
          return yield* dropped(context, app);
        }
        if (next.done) {
          yield* record(scanner.end());
          yield* release(false);
          app.end();
          return;
        }
        times.add(position, yield* now);
        yield* record(scanner.push(next.value));
        position += next.value.length;
        boundaries.push(position);
        // A chunk ended between the held event and whatever follows it: it joins nothing.
        if (held !== undefined && boundaryBetween(boundaries, held.end, scanner.blockStart)) yield* release(false);
        const needed = held?.end ?? scanner.blockStart;
        boundaries = boundaries.filter((at) => at >= needed);
        times.forget(needed);
        app.write(next.value);
      }
    });
    yield* relay.pipe(Effect.onInterrupt(() => release(false).pipe(Effect.ignore)));
  });
