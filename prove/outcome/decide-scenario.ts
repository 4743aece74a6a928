import type { SideEvidence } from "../report/evidence.ts";
import { refLabel } from "./ref-label.ts";
import { decide, type Decision } from "./verdict.ts";

/** The verdict of one scenario from its evidence, refs shown as typed (or short when a SHA). */
export function decideScenario(
  refs: { readonly base: string; readonly head: string },
  evidence: { readonly base: SideEvidence; readonly head: SideEvidence },
): Decision {
  const attempts = (side: SideEvidence) => side.attempts.map((attempt) => attempt.attempt);
  return decide(
    { ref: refLabel(refs.base, evidence.base.commit?.sha), attempts: attempts(evidence.base) },
    { ref: refLabel(refs.head, evidence.head.commit?.sha), attempts: attempts(evidence.head) },
  );
}
