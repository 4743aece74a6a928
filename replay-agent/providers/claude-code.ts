import type { StdioProviderFormat } from "./provider-format.ts";

// PLACEHOLDER (replaced by the claude-code profile's own rules): no framing checked, mismatches unanswered.
export const claudeCode: StdioProviderFormat = {
  checkFraming: () => undefined,
  answerMismatch: () => undefined,
};
