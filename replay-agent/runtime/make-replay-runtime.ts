import { Deferred, Duration, Effect, PubSub, Stream, type Scope } from "effect";
import { NotPausedError, PauseNotReachedError, ReplayMismatchError } from "../errors.ts";
import { describeEntry } from "../transcript/describe.ts";
import type { ExpectOutbound } from "../transcript/schema.ts";
import type { Located, Transcript, TranscriptEntry } from "../transcript/transcript.ts";
import { formatDifferences, matchPattern } from "./pattern.ts";
import type { HeldPause, Mismatch, NextEntry, RecordedRequest, ReplayRuntime, RuntimeStatus } from "./replay-runtime.ts";
import type { ResponseSink } from "./response-sink.ts";

/** What an expect_outbound line matches: its HTTP `request` or its stdio `message`. */
const patternOf = (entry: Located<ExpectOutbound>): unknown => entry.request ?? entry.message;

/**
 * Builds the runtime for one transcript. Two positions move forward only: `claim`, the next
 * expect_outbound no request has matched yet, and `cursor`, the next entry not yet played.
 * A request claims on arrival and plays when the cursor reaches its line, so answers go out
 * in transcript order. Closing the scope fails every pending `awaitPause`.
 */
export const makeReplayRuntime = <Req>(transcript: Transcript): Effect.Effect<ReplayRuntime<Req>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const entries = transcript.entries;
    const slots: ReadonlyArray<Slot> = entries.map((entry, index) => ({
      index,
      entry,
      turn: Deferred.makeUnsafe(),
      reached: Deferred.makeUnsafe(),
      resumed: Deferred.makeUnsafe(),
    }));
    const nextExpectation = (from: number): number => {
      const index = entries.findIndex((entry, at) => at >= from && entry.type === "expect_outbound");
      return index === -1 ? entries.length : index;
    };
    let cursor = 0;
    let claim = nextExpectation(0);
    let held: Slot | null = null;
    const mismatches: Array<Mismatch<Req>> = [];
    const requests: Array<RecordedRequest<Req>> = [];
    const changed = yield* PubSub.unbounded<void>();
    yield* Effect.addFinalizer(() => PubSub.shutdown(changed));
    /** Tells the `changes` subscribers that status or requests moved. */
    const notify = () => {
      PubSub.publishUnsafe(changed, undefined);
    };
    const openTurn = (index: number) => Effect.suspend(() => {
      const slot = slots[index];
      return slot === undefined ? Effect.void : Deferred.succeed(slot.turn, undefined);
    });
    yield* openTurn(0);

    const nextEntry = (): NextEntry | null => {
      const entry = entries[cursor];
      return entry === undefined ? null : { line: entry.line, type: entry.type, summary: describeEntry(entry) };
    };
    const describeNext = (): string => {
      const next = nextEntry();
      return next === null ? "the end of the transcript" : `line ${next.line} (${next.summary})`;
    };

    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        const reason = `the replay server closed while the transcript was at ${describeNext()}`;
        return Effect.forEach(slots, (slot) => Deferred.fail(slot.reached, reason), { discard: true });
      }),
    );

    /** Matches `request` against the next unclaimed expectation; claims it on a match. */
    const claimFor = (request: Req): Slot | ReplayMismatchError => {
      const slot = slots[claim];
      if (slot === undefined || slot.entry.type !== "expect_outbound") {
        const expected = entries.filter((entry) => entry.type === "expect_outbound").length;
        const mismatch = {
          request,
          expectedLine: null,
          expected: null,
          diff: `the transcript expects no more requests: all ${expected} of its expect_outbound lines were already matched`,
        };
        mismatches.push(mismatch);
        requests.push({ request, matched: false });
        notify();
        return new ReplayMismatchError({ file: transcript.file, ...mismatch, expectedSummary: null });
      }
      const expected = patternOf(slot.entry);
      const differences = matchPattern(expected, request);
      if (differences.length > 0) {
        const mismatch = { request, expectedLine: slot.entry.line, expected, diff: formatDifferences(differences) };
        mismatches.push(mismatch);
        requests.push({ request, matched: false });
        notify();
        return new ReplayMismatchError({ file: transcript.file, ...mismatch, expectedSummary: describeEntry(slot.entry) });
      }
      claim = nextExpectation(claim + 1);
      requests.push({ request, matched: true });
      notify();
      return slot;
    };

    /** Plays the lines after the cursor up to the next expect_outbound. */
    const playAnswer = Effect.fn("ReplayRuntime.playAnswer")(function* (sink: ResponseSink) {
      for (let slot = slots[cursor]; slot !== undefined && slot.entry.type !== "expect_outbound"; slot = slots[cursor]) {
        const entry = slot.entry;
        switch (entry.type) {
          case "pause":
            held = slot;
            notify();
            yield* Deferred.succeed(slot.reached, undefined);
            yield* Deferred.await(slot.resumed);
            break;
          case "delay":
            yield* Effect.sleep(Duration.millis(entry.ms));
            cursor++;
            break;
          default:
            yield* sink.send(entry);
            cursor++;
        }
        notify();
      }
      yield* sink.end;
      yield* openTurn(cursor);
    });

    const serve = Effect.fn("ReplayRuntime.serve")(function* (request: Req, sink: ResponseSink) {
      const claimed = claimFor(request);
      if (claimed instanceof ReplayMismatchError) return yield* claimed;
      yield* Deferred.await(claimed.turn);
      cursor = claimed.index + 1;
      notify();
      yield* playAnswer(sink);
    });

    /** Plays from the start up to the first expect_outbound; slot 0's turn is open from the start. */
    const serveOpening = Effect.fn("ReplayRuntime.serveOpening")(function* (sink: ResponseSink) {
      const first = slots[0];
      if (first === undefined || first.entry.type === "expect_outbound") return;
      yield* Deferred.await(first.turn);
      yield* playAnswer(sink);
    });

    const awaitPause = Effect.fn("ReplayRuntime.awaitPause")(function* (name: string) {
      const target = slots.find(({ index, entry }) => index >= cursor && entry.type === "pause" && entry.name === name);
      if (target === undefined) return yield* new PauseNotReachedError({ name, reason: missingPauseReason(name) });
      yield* Deferred.await(target.reached).pipe(Effect.mapError((reason) => new PauseNotReachedError({ name, reason })));
      return { name, line: target.entry.line };
    });

    const missingPauseReason = (name: string): string => {
      const pauses = entries.flatMap((entry) => (entry.type === "pause" ? [entry] : []));
      const passed = pauses.find((entry) => entry.name === name);
      if (passed !== undefined) return `the transcript already played past it (line ${passed.line}); it is now at ${describeNext()}`;
      if (pauses.length === 0) return `${transcript.file} has no pause lines`;
      const names = pauses.map((entry) => `"${entry.name}" (line ${entry.line})`).join(", ");
      return `${transcript.file} has no pause named "${name}"; its pauses are ${names}`;
    };

    /** Releases the held pause; the cursor moves past it at once so status never shows a released pause. */
    const resume = Effect.suspend((): Effect.Effect<HeldPause, NotPausedError> => {
      const slot = held;
      if (slot === null || slot.entry.type !== "pause") return Effect.fail(new NotPausedError({ next: describeNext() }));
      held = null;
      cursor = slot.index + 1;
      notify();
      return Deferred.succeed(slot.resumed, undefined).pipe(Effect.as({ name: slot.entry.name, line: slot.entry.line }));
    });

    const status = Effect.sync((): RuntimeStatus<Req> => ({
      played: cursor,
      remaining: entries.length - cursor,
      paused: held !== null && held.entry.type === "pause" ? held.entry.name : null,
      mismatches: [...mismatches],
      next: nextEntry(),
    }));

    return {
      transcript,
      serve,
      serveOpening,
      status,
      requests: Effect.sync(() => [...requests]),
      awaitPause,
      resume,
      changes: Stream.fromPubSub(changed),
    } satisfies ReplayRuntime<Req>;
  });

/** One entry with the gates the runtime opens as it plays: its turn, and for a pause, reached and resumed. */
interface Slot {
  readonly index: number;
  readonly entry: TranscriptEntry;
  readonly turn: Deferred.Deferred<void>;
  readonly reached: Deferred.Deferred<void, string>;
  readonly resumed: Deferred.Deferred<void>;
}
