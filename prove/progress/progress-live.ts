import { Clock, Effect, Exit, Layer } from "effect";
import { Progress, type ProgressShape, type StepLabel } from "./progress.ts";

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

function format(label: StepLabel, durationMs: number, outcome: string | undefined): string {
  const where = (label.side ?? "").padEnd(5);
  const what = label.step.padEnd(10);
  const detail = label.detail === undefined ? "" : `${label.detail}  `;
  return `${where} ${what} ${detail}${outcome === undefined ? "" : `${outcome} `}${formatDuration(durationMs)}`;
}

/** Progress written line by line to `write` (the CLI passes stderr). */
export function progressLayer(write: (line: string) => void) {
  const done = Effect.fn("Progress.done")(function* (label: StepLabel, durationMs: number, outcome?: string) {
    yield* Effect.sync(() => write(format(label, durationMs, outcome)));
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
  return Layer.succeed(Progress, { step, done, line } satisfies ProgressShape);
}
