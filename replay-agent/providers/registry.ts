import { Effect } from "effect";
import { UnsupportedProviderError } from "../errors.ts";
import type { Provider } from "../transcript/providers.ts";
import type { Transcript } from "../transcript/transcript.ts";
import { openAiChat } from "./openai-chat.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

/** Every provider's wire format; `null` where it is not built yet. Typed exhaustively so a new provider must be listed. */
export const providerFormats: { readonly [P in Provider]: HttpProviderFormat | null } = {
  "openai-chat": openAiChat,
  "openai-responses": null,
  "anthropic-messages": null,
  "jsonrpc-stdio": null,
};

const supported = Object.entries(providerFormats).flatMap(([provider, format]) => (format === null ? [] : [provider]));

/** The HTTP wire format that serves `transcript`, or why there is none. */
export const httpFormatFor = (transcript: Transcript): Effect.Effect<HttpProviderFormat, UnsupportedProviderError> => {
  const format = providerFormats[transcript.meta.provider];
  return format === null
    ? Effect.fail(new UnsupportedProviderError({ file: transcript.file, provider: transcript.meta.provider, supported }))
    : Effect.succeed(format);
};
