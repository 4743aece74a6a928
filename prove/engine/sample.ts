// A performance proof's runs: both sides prepared, each warmed by one run, then samples in turns (ABBA) until the statistics decide.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import * as Clock from "effect/Clock";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Scope from "effect/Scope";
import { cpuSlowdownEnv, measureTraceEnv } from "../../common/contract.ts";
import type { SideError } from "../errors.ts";
import { Git, type Commit } from "../git/git.ts";
import type { ProveOptions } from "../options/index.ts";
import type { ClassifiedAttempt } from "../outcome/classify.ts";
import type { SideName } from "../outcome/types.ts";
import { Progress } from "../progress/progress.ts";
import { attemptOnce, errorAttempt, prepareShared, type SharedInstall, type SideContext } from "./side.ts";
import { oneScenarioReady } from "./steps.ts";
import type { Run } from "./run.ts";
import { formatRange, formatRatio, formatValue } from "../perf/words.ts";
import { valueOf, type PerfRequest } from "../perf/request.ts";
import { turnOrder, type Sample, type Sampled, type SamplingEnd } from "../perf/samples.ts";
import { decide, ratioInterval, type RatioInterval } from "../perf/stats.ts";

/** "0.52 (95 % 0.47–0.58)": head ÷ base so far, for progress lines. */
const soFar = (interval: RatioInterval | undefined) =>
  interval === undefined
    ? "head ÷ base: not yet"
    : `head ÷ base ${formatRatio(interval.ratio)} (95 % ${formatRange(interval.low, interval.high)})`;

/**
 * Prepares both sides (checked out while the scenario was listed; head hard-links base's install when
 * their manifests match), then runs them one at a time, never both at once: each side's warm-up,
 * then pairs of samples in ABBA turns until `decide` decides or a run gives no sample. The warm-ups
 * have measureTraceEnv set (their traces are the report's), and every run cpuSlowdownEnv with --cpu-slowdown.
 */
export const sampleSides = Effect.fn("Perf.sample")(function* (run: Run, options: ProveOptions, request: PerfRequest) {
  const git = yield* Git;
  const { base, head, context: plain, early } = yield* oneScenarioReady(run, options, 1);
  const same = yield* git.sameDependencies(plain.repo, base.sha, head.sha);
  const shared: SharedInstall | undefined = same ? { by: "base", installed: yield* Deferred.make<string, void>() } : undefined;
  const env: Readonly<Record<string, string>> = request.cpuSlowdown === undefined ? {} : { [cpuSlowdownEnv]: String(request.cpuSlowdown) };
  const context: SideContext = { ...plain, shared, checkedOut: early.checkedOut, attempt: { ...plain.attempt, env } };
  const sampled = yield* inTurns(
    request,
    { base: { ref: options.base, commit: base }, head: { ref: options.head, commit: head } },
    context,
  ).pipe(Scope.provide(early.worktrees));
  // Both worktrees are removed while the report is written; the proof's scope waits for them (as bothSides does).
  const removing = yield* Effect.forkDetach(Scope.close(early.worktrees, Exit.void));
  yield* Effect.addFinalizer(() => Fiber.join(removing));
  return sampled;
});

const inTurns = Effect.fn("Perf.inTurns")(function* (
  request: PerfRequest,
  sides: Readonly<Record<SideName, { readonly ref: string; readonly commit: Commit }>>,
  context: SideContext,
) {
  const progress = yield* Progress;
  const out = (name: SideName) => join(context.runDir, `${name}.out`);
  const warmups: Partial<Record<SideName, ClassifiedAttempt>> = {};
  const samples: Record<SideName, Sample[]> = { base: [], head: [] };
  const order: SideName[] = [];
  const result = (end: SamplingEnd): Sampled => ({
    base: { ...sides.base, warmup: warmups.base, samples: samples.base },
    head: { ...sides.head, warmup: warmups.head, samples: samples.head },
    end,
    order,
  });
  const values = (name: SideName) => samples[name].map((sample) => sample.value);

  // Prepared one after the other: head may wait for base's install to hard-link it.
  const roots: Partial<Record<SideName, string>> = {};
  for (const name of ["base", "head"] as const) {
    yield* Effect.promise(() => mkdir(out(name), { recursive: true }));
    const start = yield* Clock.currentTimeMillis;
    const prepared = yield* prepareShared(name, sides[name].commit, context, out(name)).pipe(
      Effect.map((appRoot) => ({ appRoot, failed: undefined })),
      Effect.catch((error: SideError) =>
        Clock.currentTimeMillis.pipe(Effect.map((end) => ({ appRoot: undefined, failed: errorAttempt(error, end - start, null) }))),
      ),
    );
    if (prepared.failed !== undefined) return result({ kind: "stopped", side: name, attempt: prepared.failed, why: "error" });
    roots[name] = prepared.appRoot;
  }

  // Only the warm-ups are traced: tracing slows the page, which the app can observe, so no counted sample is.
  const traced: SideContext = { ...context, attempt: { ...context.attempt, env: { ...context.attempt.env, [measureTraceEnv]: "1" } } };

  /** One run of a side: its value, or why it gives none. */
  const once = (name: SideName, index: number, shownAs: string) =>
    Effect.gen(function* () {
      const appRoot = roots[name];
      if (appRoot === undefined) return yield* Effect.die(new Error(`${name} was not prepared`));
      const attempt = yield* attemptOnce(name, 0, index, appRoot, index === 0 ? traced : context, out(name), undefined, shownAs);
      if (attempt === undefined) return yield* Effect.die(new Error(`${name}'s run gave nothing`));
      const outcome = attempt.attempt.outcome;
      if (outcome !== "passed") return { attempt, value: undefined, why: outcome } as const;
      const value = valueOf(request, attempt.artifacts.measures);
      return value === undefined ? ({ attempt, value, why: "no-measure" } as const) : ({ attempt, value, why: undefined } as const);
    });

  for (const name of ["base", "head"] as const) {
    const warm = yield* once(name, 0, "warm-up, not counted");
    warmups[name] = warm.attempt;
    if (warm.why !== undefined) return result({ kind: "stopped", side: name, attempt: warm.attempt, why: warm.why });
  }
  for (let turn = 0; ; turn++) {
    for (const name of turnOrder(turn)) {
      const index = samples[name].length + 1;
      const ran = yield* once(name, index, `sample ${index}`);
      if (ran.why !== undefined) return result({ kind: "stopped", side: name, attempt: ran.attempt, why: ran.why });
      samples[name].push({ value: ran.value, attempt: ran.attempt });
      order.push(name);
      const shown = ratioInterval(values("base"), values("head"));
      yield* progress.line(`${name} sample ${index}: ${request.typed} ${formatValue(request.metric, ran.value)}; ${soFar(shown)}`);
    }
    const step = decide(request, values("base"), values("head"));
    if (step.kind === "decided") return result({ kind: "decided", outcome: step.outcome, decidedOn: step.interval });
  }
});
