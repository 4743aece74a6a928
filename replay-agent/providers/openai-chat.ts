import { endsWith, httpFraming, sseOnly, stillOpen } from "./http-framing.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

/**
 * The openai-chat wire format (`POST /v1/chat/completions`). A streamed answer is a run of
 * `data: <chunk JSON>` events ending with `data: [DONE]`; a non-streamed answer is one JSON
 * response; `fail` is an HTTP error status with the recorded error body, which the official
 * SDK raises as the `APIError` subclass for that status.
 */
export const openAiChat: HttpProviderFormat = {
  hosts: ["api.openai.com"],
  checkFraming: httpFraming({
    ending: "[DONE]",
    endingExample: '{"type":"emit_inbound","sse":{"data":"[DONE]"}}',
    open: sseOnly(() => (frame) => (frame.data === "[DONE]" ? endsWith("[DONE]") : stillOpen)),
  }),
  credentials: { env: "OPENAI_API_KEY", headers: (key) => ({ authorization: `Bearer ${key}` }) },
};
