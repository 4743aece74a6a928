import * as Effect from "effect/Effect";
import { WrongTransportError } from "../errors.ts";
import { isHttpProvider, type HttpProvider, type StdioProvider } from "../transcript/providers.ts";
import type { Transcript } from "../transcript/transcript.ts";
import { anthropicMessages } from "./anthropic-messages.ts";
import { jsonRpcStdio } from "./jsonrpc-stdio.ts";
import { openAiChat } from "./openai-chat.ts";
import { openAiResponses } from "./openai-responses.ts";
import type { FramingCheck, HttpProviderFormat, StdioProviderFormat } from "./provider-format.ts";

/** Every HTTP provider's wire format; typed exhaustively so a new provider must be listed. */
export const httpFormats: { readonly [P in HttpProvider]: HttpProviderFormat } = {
  "openai-chat": openAiChat,
  "openai-responses": openAiResponses,
  "anthropic-messages": anthropicMessages,
};

/** Every stdio provider's wire format. */
export const stdioFormats: { readonly [P in StdioProvider]: StdioProviderFormat } = {
  "jsonrpc-stdio": jsonRpcStdio,
};

/** The framing rules of `transcript`'s provider. */
export const framingOf = (transcript: Transcript): FramingCheck => {
  const provider = transcript.meta.provider;
  return isHttpProvider(provider) ? httpFormats[provider].checkFraming : stdioFormats[provider].checkFraming;
};

/** The HTTP wire format that serves `transcript`, or the command that serves it instead. */
export const httpFormatFor = (transcript: Transcript): Effect.Effect<HttpProviderFormat, WrongTransportError> => {
  const provider = transcript.meta.provider;
  return isHttpProvider(provider)
    ? Effect.succeed(httpFormats[provider])
    : Effect.fail(
        new WrongTransportError({
          file: transcript.file,
          provider,
          command: "serve",
          use: `replay-agent stdio --transcript ${transcript.file}, which the app spawns`,
        }),
      );
};

/** The stdio wire format that serves `transcript`, or the command that serves it instead. */
export const stdioFormatFor = (transcript: Transcript): Effect.Effect<StdioProviderFormat, WrongTransportError> => {
  const provider = transcript.meta.provider;
  return isHttpProvider(provider)
    ? Effect.fail(
        new WrongTransportError({
          file: transcript.file,
          provider,
          command: "stdio",
          use: `replay-agent serve --transcript ${transcript.file} and point the app's base URL at it`,
        }),
      )
    : Effect.succeed(stdioFormats[provider]);
};
