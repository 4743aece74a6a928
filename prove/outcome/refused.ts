import { isAbsolute, relative } from "node:path";
import type { StepMetadata, StrayCallMetadata } from "../../common/contract.ts";
import type { RefusedCall } from "./types.ts";

/** A step as a reader finds it: its title, and its line relative to the invoking checkout when it is inside it. */
function stepLabel(step: StepMetadata, root: string): string {
  if (step.location === undefined) return step.title;
  const at = step.location.lastIndexOf(":");
  const inside = relative(root, step.location.slice(0, at));
  return inside.startsWith("..") || isAbsolute(inside) ? step.title : `${step.title} (${inside}${step.location.slice(at)})`;
}

/**
 * The step a call came in: the innermost step running at that moment (the latest begun of those around it), else
 * "after" the last one that had ended; undefined when it came before the test's first step or no steps are known.
 */
export function stepAt(at: number, steps: ReadonlyArray<StepMetadata>, root: string): string | undefined {
  const around = steps.filter((step) => step.start <= at && at <= step.end).sort((a, b) => b.start - a.start)[0];
  if (around !== undefined) return stepLabel(around, root);
  const before = steps.filter((step) => step.end < at).sort((a, b) => b.end - a.end)[0];
  return before === undefined ? undefined : `after ${stepLabel(before, root)}`;
}

/** The calls the route refused in an attempt (from the harness's annotation), each with its time and the step it came in. */
export function refusedCalls(
  strays: ReadonlyArray<StrayCallMetadata>,
  steps: ReadonlyArray<StepMetadata>,
  root: string,
): ReadonlyArray<RefusedCall> {
  return strays.map((stray) => {
    const step = stepAt(stray.at, steps, root);
    return {
      host: stray.host,
      method: stray.method,
      path: stray.path,
      at: new Date(stray.at).toISOString(),
      ...(step === undefined ? {} : { step }),
      ...(stray.tlsFailure === undefined ? {} : { tlsFailure: stray.tlsFailure }),
    };
  });
}

/**
 * One refused call as a line of text: `GET example.com/ (during locator.click (scenarios/a.e2e.ts:5))`, or for an HTTPS
 * call to an IP address `HTTPS to an IP address, its TLS handshake with the route failed (cert-rejected) (during …)`.
 */
export const describeRefused = (call: RefusedCall): string =>
  `${call.tlsFailure === undefined ? `${call.method} ${call.host}${call.path}` : `HTTPS to ${call.host}, its TLS handshake with the route failed (${call.tlsFailure})`}` +
  `${call.step === undefined ? "" : ` (${call.step.startsWith("after ") ? "" : "during "}${call.step})`}`;
