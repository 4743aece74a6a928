// The verdict of a performance proof from its samples, or from the run that ended it.
import { describeError, type Decision } from "../outcome/verdict.ts";
import { decideScenario } from "../outcome/decide-scenario.ts";
import { refLabel } from "../outcome/ref-label.ts";
import type { SideEvidence } from "../report/evidence.ts";
import type { PerfRequest } from "./request.ts";
import type { Sampled, SideSamples } from "./samples.ts";
import { passes, ratioInterval } from "./stats.ts";
import { outcomeSentence } from "./words.ts";

/** A side's runs as a proof's evidence: its samples, then the run that ended the proof when it was this side's (its warm-up when no sample came). */
export function perfEvidence(sampled: Sampled): { readonly base: SideEvidence; readonly head: SideEvidence } {
  const of = (name: "base" | "head", side: SideSamples): SideEvidence => {
    const stopped = sampled.end.kind === "stopped" && sampled.end.side === name ? [sampled.end.attempt] : [];
    const counted = side.samples.map((sample) => sample.attempt);
    const runs = [...counted, ...stopped];
    return { ref: side.ref, commit: side.commit, attempts: runs.length === 0 && side.warmup !== undefined ? [side.warmup] : runs };
  };
  return { base: of("base", sampled.base), head: of("head", sampled.head) };
}

/**
 * The verdict: a run that could not run is the proof's could-not-run, as for any proof; a run that
 * failed is not proved (exit 1, its error named: never hidden behind a number); a run that measured
 * nothing could not run; else the statistics' outcome.
 */
export function decidePerf(request: PerfRequest, refs: { readonly base: string; readonly head: string }, sampled: Sampled): Decision {
  const end = sampled.end;
  const ref = (name: "base" | "head") => refLabel(refs[name], sampled[name].commit.sha);
  if (end.kind === "stopped") {
    if (end.why === "error") return decideScenario(refs, perfEvidence(sampled));
    if (end.why === "failed") {
      return {
        verdict: "not-proved",
        exitCode: 1,
        reasonCode: end.side === "base" ? "fails-on-base" : "fails-on-head",
        reason: `The scenario fails on ${end.side} (${ref(end.side)}) with ${describeError(end.attempt.attempt.error)}, so ${request.typed} was not compared; make it pass on both sides first.`,
      };
    }
    const which = request.label === undefined ? "no block" : `no block labelled ${JSON.stringify(request.label)}`;
    const measured = [...new Set((end.attempt.artifacts.measures ?? []).map((block) => block.label))];
    return {
      verdict: "could-not-run",
      exitCode: 2,
      reasonCode: "no-measure",
      reason:
        `The scenario measured ${which} on ${end.side} (${ref(end.side)}): it must call app.measure(label, async () => { … }) around the work to compare` +
        (measured.length === 0 ? "." : `; it measured ${measured.map((label) => JSON.stringify(label)).join(", ")}.`),
    };
  }
  const base = sampled.base.samples.map((sample) => sample.value);
  const head = sampled.head.samples.map((sample) => sample.value);
  const count = Math.min(base.length, head.length);
  const sentence = outcomeSentence(request, end.outcome, ratioInterval(base, head), count, count >= request.maxSamples);
  const proved = passes(end.outcome);
  return {
    verdict: proved ? "proved" : "not-proved",
    exitCode: proved ? 0 : 1,
    reasonCode: end.outcome,
    reason: `${sentence} (base ${ref("base")}, head ${ref("head")})`,
  };
}
