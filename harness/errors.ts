/**
 * Errors the harness raises when it cannot give a test a running app. Each message starts
 * with a stable tag, `[scenario-harness:<kind>]`, which the prover reads to tell an
 * `error` (could not run) from a `failed` (the app misbehaved).
 */
export type HarnessErrorKind = "config" | "boot" | "browser" | "transcript" | "replay-mismatch" | "transcript-unplayed";

export class HarnessError extends Error {
  readonly kind: HarnessErrorKind;

  constructor(kind: HarnessErrorKind, message: string) {
    super(`[scenario-harness:${kind}] ${message}`);
    this.name = "HarnessError";
    this.kind = kind;
  }
}
