import type { WebSocketProviderFormat } from "./provider-format.ts";

// PLACEHOLDER (replaced by the openai-realtime profile's own rules): no framing checked, mismatches unanswered.
export const openAiRealtime: WebSocketProviderFormat = {
  checkFraming: () => undefined,
  answerMismatch: () => undefined,
};
