import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import { formatDuration } from "../outcome/durations.ts";
import { Progress, type ProgressShape, type StepLabel, type TimedStep } from "./progress.ts";

function prefix(label: StepLabel): string {
  return `${(label.side ?? "").padEnd(5)} ${label.step.padEnd(9)}${label.detail === undefined ? "" : ` ${label.detail}`}`;
}

/** Progress written line by line to `write` (the CLI passes stderr). */
export function progressLayer(write: (line: string) => void) {
  const steps: TimedStep[] = [];
  const ended = Effect.fn("Progress.ended")(function* (label: StepLabel, text: string, ms?: number) {
    yield* Effect.sync(() => {
      if (ms !== undefined) steps.push({ label, ms });
      write(`${prefix(label)}  ${text}`);
    });
  });
  const done = (label: StepLabel, durationMs: number, outcome?: string) =>
    ended(label, `${outcome === undefined ? "" : `${outcome} `}${formatDuration(durationMs)}`, durationMs);
  const started = Effect.fn("Progress.started")(function* (label: StepLabel) {
    yield* Effect.sync(() => write(`${prefix(label)}  …`));
  });
  const line = Effect.fn("Progress.line")(function* (text: string) {
    yield* Effect.sync(() => write(text));
  });
  const step = <A, E, R>(label: StepLabel, effect: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const start = yield* Clock.currentTimeMillis;
      const exit = yield* Effect.exit(effect);
      const end = yield* Clock.currentTimeMillis;
      const outcome = Exit.isSuccess(exit) ? undefined : Exit.hasInterrupts(exit) ? "interrupted after" : "failed after";
      yield* done(label, end - start, outcome);
      return yield* exit;
    }).pipe(Effect.withSpan(`Progress.step ${label.step}`));
  const timed = Effect.sync((): ReadonlyArray<TimedStep> => [...steps]);
  return Layer.succeed(Progress, { step, done, ended, started, line, timed } satisfies ProgressShape);
}
