import { harnessErrorTag, type HarnessErrorKind } from "../common/contract.ts";

export type { HarnessErrorKind };

/**
 * Errors the harness raises when it cannot give a test a running app. Each message starts
 * with a stable tag (see harnessErrorTag), which the prover reads to tell an `error` (could
 * not run) from a `failed` (the app misbehaved).
 */
export class HarnessError extends Error {
  readonly kind: HarnessErrorKind;

  constructor(kind: HarnessErrorKind, message: string) {
    super(`${harnessErrorTag(kind)} ${message}`);
    this.name = "HarnessError";
    this.kind = kind;
  }
}
