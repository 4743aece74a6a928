import { harnessErrorTag, type HarnessErrorKind } from "../common/contract.ts";

export type { HarnessErrorKind };

/**
 * The harness could not give a test a running app. The message starts with harnessErrorTag(kind),
 * by which the prover tells an `error` (could not run) from a `failed`.
 */
export class HarnessError extends Error {
  readonly kind: HarnessErrorKind;

  constructor(kind: HarnessErrorKind, message: string) {
    super(`${harnessErrorTag(kind)} ${message}`);
    this.name = "HarnessError";
    this.kind = kind;
  }
}
