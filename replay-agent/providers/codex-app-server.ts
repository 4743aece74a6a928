import type { StdioProviderFormat } from "./provider-format.ts";

// PLACEHOLDER (replaced by the codex-app-server profile's own rules): no framing checked, mismatches unanswered.
export const codexAppServer: StdioProviderFormat = {
  checkFraming: () => undefined,
  answerMismatch: () => undefined,
};
