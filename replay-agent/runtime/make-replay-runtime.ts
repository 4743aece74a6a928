import * as Deferred from "effect/Deferred";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as PubSub from "effect/PubSub";
import * as Stream from "effect/Stream";
import type * as Scope from "effect/Scope";
import { NotPausedError, PauseNotReachedError, ReplayMismatchError } from "../errors.ts";
import { describeEntry } from "../transcript/describe.ts";
import type { ExpectOutbound } from "../transcript/schema.ts";
import type { AnswerEntry, Located, Transcript, TranscriptEntry } from "../transcript/transcript.ts";
import { formatDifferences, matchPattern } from "./pattern.ts";
import type { HeldPause, Mismatch, NextEntry, RecordedRequest, ReplayRuntime, RuntimeStatus } from "./replay-runtime.ts";
import type { AnswerRun, ResponseSink } from "./response-sink.ts";

/** What an expect_outbound line matches: its HTTP `request` or its stdio `message`. */
const patternOf = (entry: Located<ExpectOutbound>): unknown => entry.request ?? entry.message;

/** One run of answer lines as its transport prepared it, and how many entries it covers. */
interface PreparedRun<Run> {
  readonly prepared: Run;
  readonly length: number;
}

/** Cuts the answer lines into runs at every expect_outbound, pause and delay, and prepares each run under the index of its first line. */
const prepareRuns = <Run>(entries: ReadonlyArray<TranscriptEntry>, prepare: (run: AnswerRun) => Run): ReadonlyMap<number, PreparedRun<Run>> => {
  const runs = new Map<number, PreparedRun<Run>>();
  let start = 0;
  let lines: Array<AnswerEntry> = [];
  const close = () => {
    if (lines.length > 0) runs.set(start, { prepared: prepare(lines), length: lines.length });
    lines = [];
  };
  entries.forEach((entry, index) => {
    if (entry.type === "expect_outbound" || entry.type === "pause" || entry.type === "delay") return close();
    if (lines.length === 0) start = index;
    lines.push(entry);
  });
  close();
  return runs;
};

/**
 * Builds the runtime for one transcript. Two positions move forward only: `claimed`, how many
 * expect_outbound lines requests have matched, and `cursor`, the next entry not yet played.
 * A request claims on arrival and plays when the cursor reaches its line, so answers go out
 * in transcript order. Each run of answer lines between pauses and delays is prepared here,
 * once, by `prepare`, and played with one `send`. Closing the scope fails every pending `awaitPause`.
 */
export const makeReplayRuntime = <Req, Run>(
  transcript: Transcript,
  prepare: (run: AnswerRun) => Run,
): Effect.Effect<ReplayRuntime<Req, Run>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const entries = transcript.entries;
    const runs = prepareRuns(entries, prepare);
    const slots: ReadonlyArray<Slot<Run>> = entries.map((entry, index) => ({
      index,
      entry,
      run: runs.get(index),
      turn: Deferred.makeUnsafe(),
      reached: Deferred.makeUnsafe(),
      resumed: Deferred.makeUnsafe(),
    }));
    /** Where each expect_outbound is, in order, so claiming the next one costs nothing however long the answers are. */
    const expectations = entries.flatMap((entry, index) => (entry.type === "expect_outbound" ? [index] : []));
    let cursor = 0;
    let claimed = 0;
    let held: Slot<Run> | null = null;
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
    const claimFor = (request: Req): Slot<Run> | ReplayMismatchError => {
      const slot = slots[expectations[claimed] ?? entries.length];
      if (slot?.entry.type !== "expect_outbound") {
        const mismatch = {
          request,
          expectedLine: null,
          expected: null,
          diff: `the transcript expects no more requests: all ${expectations.length} of its expect_outbound lines were already matched`,
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
      claimed++;
      requests.push({ request, matched: true });
      notify();
      return slot;
    };

    /** Plays the lines after the cursor up to the next expect_outbound. */
    const playAnswer = Effect.fn("ReplayRuntime.playAnswer")(function* (sink: ResponseSink<Run>) {
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
          default: {
            // Runs start after every expect_outbound, pause and delay, where the cursor stops.
            const run = slot.run ?? (yield* Effect.die(`replay runtime: line ${entry.line} does not start a run of answer lines`));
            yield* sink.send(run.prepared);
            cursor += run.length;
          }
        }
        notify();
      }
      yield* sink.end;
      yield* openTurn(cursor);
    });

    const serve = Effect.fn("ReplayRuntime.serve")(function* (request: Req, sink: ResponseSink<Run>) {
      const claimed = claimFor(request);
      if (claimed instanceof ReplayMismatchError) return yield* claimed;
      yield* Deferred.await(claimed.turn);
      cursor = claimed.index + 1;
      notify();
      yield* playAnswer(sink);
    });

    /** Plays from the start up to the first expect_outbound; slot 0's turn is open from the start. */
    const serveOpening = Effect.fn("ReplayRuntime.serveOpening")(function* (sink: ResponseSink<Run>) {
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
    } satisfies ReplayRuntime<Req, Run>;
  });

/** One entry with the run of answer lines it starts, if any, and the gates the runtime opens as it plays: its turn, and for a pause, reached and resumed. */
interface Slot<Run> {
  readonly index: number;
  readonly entry: TranscriptEntry;
  readonly run: PreparedRun<Run> | undefined;
  readonly turn: Deferred.Deferred<void>;
  readonly reached: Deferred.Deferred<void, string>;
  readonly resumed: Deferred.Deferred<void>;
}
