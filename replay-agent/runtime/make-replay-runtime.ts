import * as Clock from "effect/Clock";
import * as Deferred from "effect/Deferred";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as PubSub from "effect/PubSub";
import * as Stream from "effect/Stream";
import type * as Scope from "effect/Scope";
import { NotPausedError, PauseNotReachedError, ReplayMismatchError } from "../errors.ts";
import { describeEntry } from "../transcript/describe.ts";
import type { ExpectOutbound } from "../transcript/schema.ts";
import type { Located, Transcript } from "../transcript/transcript.ts";
import { formatDifferences, matchPattern, type PatternDifference } from "./pattern.ts";
import { planTranscript, type PlannedExchange, type Step } from "./plan.ts";
import { requestExcerpt } from "./request-excerpt.ts";
import type { HeldPause, Mismatch, NextEntry, RecordedRequest, ReplayRuntime, RuntimeStatus } from "./replay-runtime.ts";
import type { AnswerRun, ResponseSink } from "./response-sink.ts";

/** What an expect_outbound line matches: its HTTP `request`, its stdio `message`, or the agent's arguments as `{spawn: {args}}`. */
const patternOf = (entry: Located<ExpectOutbound>): unknown =>
  entry.spawn !== undefined ? { spawn: entry.spawn } : (entry.request ?? entry.message);

/** Whether an expect_outbound line states the agent's arguments rather than a request. */
const isSpawn = (entry: Located<ExpectOutbound>): boolean => entry.spawn !== undefined;

/** How a request is held against an expect_outbound line: the differences, none when it matches. */
export type MatchRequest<Req> = (expect: Located<ExpectOutbound>, request: Req) => ReadonlyArray<PatternDifference>;

/** The default: the request as a whole against the line's pattern. */
const matchWholeRequest: MatchRequest<unknown> = (expect, request) => matchPattern(patternOf(expect), request);

/** An exchange as it is being matched: how often it matched, and whether its lane has moved past it. */
interface ExchangeState<Run> {
  readonly planned: PlannedExchange<Run>;
  count: number;
  closed: boolean;
}

/** One lane: its exchanges in file order, the first one not yet closed, and the end of the last answer it started. */
interface Lane<Run> {
  readonly exchanges: ReadonlyArray<ExchangeState<Run>>;
  position: number;
  tail: Deferred.Deferred<void> | undefined;
}

/** One playing (or waiting) answer: its steps, where it is, and the pause it holds at. */
interface Play<Run> {
  readonly steps: ReadonlyArray<Step<Run>>;
  readonly after: Deferred.Deferred<void> | undefined;
  readonly done: Deferred.Deferred<void>;
  step: number;
  held: { readonly pause: HeldPause; readonly resumed: Deferred.Deferred<void> } | undefined;
}

/**
 * Builds the runtime for one transcript. Each request claims an expectation on arrival, in the
 * first lane (by file order) whose next expectations it matches, and plays once the answers
 * claimed before it in that lane are done, so a lane's answers go out in order while other
 * lanes play beside it. Each run of answer pieces between pauses and delays is prepared here,
 * once, by `prepare`, and played with one `send`. `matchRequest` holds a request against an expectation
 * (a transport whose requests are of several kinds, like a WebSocket's connections and messages,
 * gives its own). A `wait` holds its answer until a `mark` of its name has played in any answer; a
 * `hold` keeps its answer open until the sink is closed. Closing the scope fails every pending `awaitPause`.
 */
export const makeReplayRuntime = <Req, Run>(
  transcript: Transcript,
  prepare: (run: AnswerRun) => Run,
  matchRequest: MatchRequest<Req> = matchWholeRequest,
): Effect.Effect<ReplayRuntime<Req, Run>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const plan = planTranscript(transcript, prepare);
    const exchanges: ReadonlyArray<ExchangeState<Run>> = plan.exchanges.map((planned) => ({ planned, count: 0, closed: false }));
    const opening: Play<Run> | undefined =
      plan.opening.length === 0
        ? undefined
        : { steps: plan.opening, after: undefined, done: Deferred.makeUnsafe(), step: 0, held: undefined };
    const byLane = new Map<string, Array<ExchangeState<Run>>>();
    for (const exchange of exchanges) byLane.set(exchange.planned.lane, [...(byLane.get(exchange.planned.lane) ?? []), exchange]);
    const lanes: ReadonlyArray<Lane<Run>> = [...byLane.values()].map((members) => ({
      exchanges: members,
      position: 0,
      tail: opening?.done,
    }));
    /** Each mark by name, completed once a mark line of that name has played; made on first use, by the mark or a wait for it. */
    const marks = new Map<string, Deferred.Deferred<void>>();
    const markNamed = (name: string): Deferred.Deferred<void> => {
      const known = marks.get(name);
      if (known !== undefined) return known;
      const made = Deferred.makeUnsafe<void>();
      marks.set(name, made);
      return made;
    };
    const played = new Set<number>();
    const plays = new Set<Play<Run>>(opening === undefined ? [] : [opening]);
    const held: Array<Play<Run>> = [];
    const mismatches: Array<Mismatch<Req>> = [];
    const requests: Array<RecordedRequest<Req>> = [];
    let closedReason: string | undefined;
    /** Completes at the next change of status; replaced on every change, failed when the runtime closes. */
    let moved = Deferred.makeUnsafe<void, string>();
    const changed = yield* PubSub.unbounded<void>();
    /** Wakes whoever waits for a change, and tells the `changes` subscribers that status or requests moved. */
    const notify = () => {
      const previous = moved;
      moved = Deferred.makeUnsafe();
      Deferred.doneUnsafe(previous, Effect.void);
      PubSub.publishUnsafe(changed, undefined);
    };

    /** The step a play stands at, for `next`; none once it has played every step. */
    const placeOf = (play: Play<Run>): NextEntry | undefined => {
      const step = play.steps[play.step];
      return step === undefined ? undefined : { line: step.line, type: step.type, summary: step.summary };
    };
    const owed = (exchange: ExchangeState<Run>): number => (exchange.closed ? 0 : Math.max(0, exchange.planned.min - exchange.count));

    /** The first line that must still play: a playing answer's step, or a required expectation not yet matched. */
    const nextEntry = (): NextEntry | null => {
      const places = [
        ...[...plays].flatMap((play) => placeOf(play) ?? []),
        ...exchanges.flatMap((exchange) =>
          owed(exchange) > 0
            ? [{ line: exchange.planned.expect.line, type: "expect_outbound", summary: describeEntry(exchange.planned.expect) }]
            : [],
        ),
      ];
      return places.reduce<NextEntry | null>((first, place) => (first === null || place.line < first.line ? place : first), null);
    };
    const describeNext = (): string => {
      const next = nextEntry();
      return next === null ? "the end of the transcript" : `line ${next.line} (${next.summary})`;
    };
    const remaining = (): number => {
      const playing = [...plays].reduce(
        (sum, play) => sum + play.steps.slice(play.step).reduce((lines, step) => lines + step.completes.length, 0),
        0,
      );
      return playing + exchanges.reduce((sum, exchange) => sum + owed(exchange) * exchange.planned.size, 0);
    };

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closedReason = `the replay server closed while the transcript was at ${describeNext()}`;
        Deferred.doneUnsafe(moved, Effect.fail(closedReason));
      }).pipe(Effect.andThen(PubSub.shutdown(changed))),
    );

    /** Each lane's expectations a request may match now, in file order: the lane's first open one, and the next while each is satisfied. */
    const candidates = (): Array<{ readonly lane: Lane<Run>; readonly at: number; readonly exchange: ExchangeState<Run> }> =>
      lanes
        .flatMap((lane) => {
          const open: Array<{ readonly lane: Lane<Run>; readonly at: number; readonly exchange: ExchangeState<Run> }> = [];
          for (let at = lane.position; at < lane.exchanges.length; at++) {
            const exchange = lane.exchanges[at];
            if (exchange === undefined) break;
            if (exchange.count < exchange.planned.max) open.push({ lane, at, exchange });
            if (exchange.count < exchange.planned.min) break;
          }
          return open;
        })
        .sort((a, b) => a.exchange.planned.expect.line - b.exchange.planned.expect.line);

    const noMoreRequests = (): string => {
      const matched = exchanges.filter((exchange) => exchange.count > 0).length;
      return matched === exchanges.length
        ? `the transcript expects no more requests: all ${exchanges.length} of its expect_outbound lines were already matched`
        : `the transcript expects no more requests: each of its ${exchanges.length} expect_outbound lines was matched as often as it may be, or passed over as optional`;
    };

    /** Matches `request` against every candidate of its kind (the agent's arguments, or a request); claims the first that matches, and closes the satisfied ones its lane passes over. */
    const claimFor = (request: Req, at: number, spawn: boolean): Play<Run> | ReplayMismatchError => {
      const open = candidates().filter((candidate) => isSpawn(candidate.exchange.planned.expect) === spawn);
      const tries = open.map((candidate) => ({
        candidate,
        differences: matchRequest(candidate.exchange.planned.expect, request),
      }));
      const match = tries.find(({ differences }) => differences.length === 0);
      if (match === undefined) {
        const closest = tries.reduce<
          { readonly candidate: (typeof open)[number]; readonly differences: ReadonlyArray<PatternDifference> } | undefined
        >((best, next) => (best === undefined || next.differences.length < best.differences.length ? next : best), undefined);
        const expect = closest?.candidate.exchange.planned.expect;
        const mismatch: Mismatch<Req> = {
          request,
          expectedLine: expect?.line ?? null,
          expected: expect === undefined ? null : patternOf(expect),
          diff: closest === undefined ? noMoreRequests() : formatDifferences(closest.differences),
          at,
        };
        mismatches.push(mismatch);
        requests.push({ request, matched: false, line: null, at });
        notify();
        return new ReplayMismatchError({
          file: transcript.file,
          request,
          expectedLine: mismatch.expectedLine,
          expected: mismatch.expected,
          diff: mismatch.diff,
          expectedSummary: expect === undefined ? null : describeEntry(expect),
        });
      }
      const { lane, at: position, exchange } = match.candidate;
      for (let passed = lane.position; passed < position; passed++) {
        const skipped = lane.exchanges[passed];
        if (skipped !== undefined) skipped.closed = true;
      }
      lane.position = position;
      exchange.count++;
      if (exchange.count >= exchange.planned.max) {
        exchange.closed = true;
        lane.position = position + 1;
      }
      played.add(exchange.planned.entryIndex);
      const play: Play<Run> = { steps: exchange.planned.steps, after: lane.tail, done: Deferred.makeUnsafe(), step: 0, held: undefined };
      lane.tail = play.done;
      plays.add(play);
      requests.push({ request, matched: true, line: exchange.planned.expect.line, at });
      notify();
      return play;
    };

    const finishStep = (play: Play<Run>, step: Step<Run>) => {
      for (const index of step.completes) played.add(index);
      play.step++;
      notify();
    };

    /** Plays `play`'s steps once the answers before it in its lane are done; its lane's next answer may start once it ends, however it ends. */
    const runPlay = (play: Play<Run>, sink: ResponseSink<Run>): Effect.Effect<void> =>
      Effect.gen(function* () {
        if (play.after !== undefined) yield* Deferred.await(play.after);
        for (let step = play.steps[play.step]; step !== undefined; step = play.steps[play.step]) {
          switch (step.kind) {
            case "pause": {
              const resumed = Deferred.makeUnsafe<void>();
              play.held = { pause: { name: step.name, line: step.line }, resumed };
              held.push(play);
              notify();
              // resume() moves the play past the pause at once, so status never shows a released pause.
              yield* Deferred.await(resumed);
              break;
            }
            case "delay":
              yield* Effect.sleep(Duration.millis(step.ms));
              finishStep(play, step);
              break;
            case "run":
              yield* sink.send(step.prepared);
              finishStep(play, step);
              break;
            case "mark":
              Deferred.doneUnsafe(markNamed(step.name), Effect.void);
              finishStep(play, step);
              break;
            case "wait":
              yield* Deferred.await(markNamed(step.mark));
              finishStep(play, step);
              break;
            case "hold":
              // Played once reached: the answer stays open, and its lane's next answer waits, until the app closes it or the runtime stops.
              finishStep(play, step);
              yield* sink.closed ?? Effect.never;
          }
        }
        yield* sink.end;
      }).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            plays.delete(play);
            const at = held.indexOf(play);
            if (at !== -1) held.splice(at, 1);
            Deferred.doneUnsafe(play.done, Effect.void);
            notify();
          }),
        ),
      );

    const serve = Effect.fn("ReplayRuntime.serve")(function* (request: Req, sink: ResponseSink<Run>) {
      const at = yield* Clock.currentTimeMillis;
      const play = claimFor(request, at, false);
      if (play instanceof ReplayMismatchError) return yield* play;
      yield* runPlay(play, sink);
    });

    const serveSpawn = Effect.fn("ReplayRuntime.serveSpawn")(function* (request: Req, sink: ResponseSink<Run>) {
      if (!exchanges.some((exchange) => isSpawn(exchange.planned.expect))) return;
      const at = yield* Clock.currentTimeMillis;
      const play = claimFor(request, at, true);
      if (play instanceof ReplayMismatchError) return yield* play;
      yield* runPlay(play, sink);
    });

    /** Plays the lines before the first expect_outbound; every lane's first answer waits for them. */
    const serveOpening = Effect.fn("ReplayRuntime.serveOpening")(function* (sink: ResponseSink<Run>) {
      if (opening !== undefined && opening.step === 0 && opening.held === undefined) yield* runPlay(opening, sink);
    });

    const heldAt = (name: string): HeldPause | undefined => held.find((play) => play.held?.pause.name === name)?.held?.pause;

    /** Whether a pause called `name` may still be held: ahead in a playing answer, or in an exchange that may still match. */
    const reachable = (name: string): boolean =>
      [...plays].some((play) => play.steps.slice(play.step).some((step) => step.kind === "pause" && step.name === name)) ||
      exchanges.some(
        (exchange) =>
          !exchange.closed &&
          exchange.count < exchange.planned.max &&
          exchange.planned.steps.some((step) => step.kind === "pause" && step.name === name),
      );

    const missingPauseReason = (name: string): string => {
      const passed = plan.pauses.find((pause) => pause.name === name);
      if (passed !== undefined) return `the transcript already played past it (line ${passed.line}); it is now at ${describeNext()}`;
      if (plan.pauses.length === 0) return `${transcript.file} has no pause lines`;
      const names = plan.pauses.map((pause) => `"${pause.name}" (line ${pause.line})`).join(", ");
      return `${transcript.file} has no pause named "${name}"; its pauses are ${names}`;
    };

    /** Why a wait for a pause ends early: the app sent a request the transcript did not expect, which fails the test anyway. */
    const mismatchReason = (mismatch: Mismatch<Req>): string => {
      const against = mismatch.expectedLine === null ? "with nothing left to expect" : `against line ${mismatch.expectedLine}`;
      return `the app sent a request the transcript did not expect (${requestExcerpt(mismatch.request)}), turned down ${against}: ${mismatch.diff.split("\n")[0] ?? ""}`;
    };

    /** Waits for pause `name`; fails when it can no longer be held, or once a request is turned down meanwhile (the test fails on it anyway). */
    const awaitPause = (name: string): Effect.Effect<HeldPause, PauseNotReachedError> => {
      const seen = mismatches.length;
      const wait = (): Effect.Effect<HeldPause, PauseNotReachedError> =>
        Effect.suspend(() => {
          const now = heldAt(name);
          if (now !== undefined) return Effect.succeed(now);
          if (closedReason !== undefined) return Effect.fail(new PauseNotReachedError({ name, reason: closedReason }));
          const turnedDown = mismatches[seen];
          if (turnedDown !== undefined) return Effect.fail(new PauseNotReachedError({ name, reason: mismatchReason(turnedDown) }));
          if (!reachable(name)) return Effect.fail(new PauseNotReachedError({ name, reason: missingPauseReason(name) }));
          return Deferred.await(moved).pipe(
            Effect.mapError((reason) => new PauseNotReachedError({ name, reason })),
            Effect.andThen(wait()),
          );
        });
      return wait();
    };

    /** Releases a held pause: the only one, or the one called `name`; the play moves past it at once. */
    const resume = (name?: string): Effect.Effect<HeldPause, NotPausedError> =>
      Effect.suspend(() => {
        const names = held.flatMap((play) => (play.held === undefined ? [] : [`"${play.held.pause.name}" (line ${play.held.pause.line})`]));
        const play =
          name === undefined ? (held.length === 1 ? held[0] : undefined) : held.find((candidate) => candidate.held?.pause.name === name);
        const release = play?.held;
        const step = play?.steps[play.step];
        if (play === undefined || release === undefined || step === undefined) {
          return Effect.fail(new NotPausedError({ next: describeNext(), ...(name === undefined ? {} : { pause: name }), held: names }));
        }
        play.held = undefined;
        held.splice(held.indexOf(play), 1);
        finishStep(play, step);
        return Deferred.succeed(release.resumed, undefined).pipe(Effect.as(release.pause));
      });

    const status = Effect.sync((): RuntimeStatus<Req> => ({
      played: played.size,
      remaining: remaining(),
      paused: held[0]?.held?.pause.name ?? null,
      held: held.flatMap((play) => (play.held === undefined ? [] : [play.held.pause])),
      mismatches: [...mismatches],
      next: nextEntry(),
    }));

    return {
      transcript,
      serve,
      serveOpening,
      serveSpawn,
      status,
      requests: Effect.sync(() => [...requests]),
      awaitPause,
      resume,
      changes: Stream.fromPubSub(changed),
    } satisfies ReplayRuntime<Req, Run>;
  });
