// Whether the replay agent lets the event loop turn while it writes frames back to back.
import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";

/** What the agent does after each write the connection has taken. */
export interface LoopTurns {
  readonly afterWrite: Effect.Effect<void>;
}

/** No turns: the default. */
export const noTurns: LoopTurns = { afterWrite: Effect.void };

/**
 * Set where something else in the replay agent's process reads what it writes: the harness's route
 * (app.route) proxies the app's calls in the Playwright worker that runs the agent. A write's
 * callback comes on the same turn of the loop, so frames written with no delay between them follow
 * one another without the loop reading any socket, and the route forwards none of them until the
 * agent stops writing. Turning the loop now and then lets the route forward the frames written so
 * far, as the app reads them straight from the agent. None by default: nothing else needs it.
 */
export const TurnLoopBetweenWrites = Context.Reference<LoopTurns>("replay-agent/TurnLoopBetweenWrites", {
  defaultValue: () => noTurns,
});

/**
 * A turn of the loop after a write once `sliceMs` have passed since the last turn: frames written
 * within a slice are forwarded together (one read, one TLS record for the route), so a long reply
 * costs few turns, and none waits more than a slice to be forwarded.
 */
export function turnsEvery(sliceMs: number): LoopTurns {
  const slice = BigInt(Math.round(sliceMs * 1_000_000));
  let last: bigint | undefined;
  return {
    afterWrite: Effect.flatMap(Clock.currentTimeNanos, (now) => {
      if (last !== undefined && now - last < slice) return Effect.void;
      last = now;
      return Effect.yieldNow;
    }),
  };
}

/** After a write the connection has taken: what TurnLoopBetweenWrites says. */
export const afterWrite: Effect.Effect<void> = Effect.flatMap(TurnLoopBetweenWrites, (turns) => turns.afterWrite);
