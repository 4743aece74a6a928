import * as Effect from "effect/Effect";
import { WrongTransportError } from "../errors.ts";
import {
  isHttpProvider,
  isStdioProvider,
  type HttpProvider,
  type Provider,
  type StdioProvider,
  type WebSocketProvider,
} from "../transcript/providers.ts";
import type { Transcript } from "../transcript/transcript.ts";
import { anthropicMessages } from "./anthropic-messages.ts";
import { bedrock } from "./bedrock.ts";
import { claudeCode } from "./claude-code.ts";
import { codexAppServer } from "./codex-app-server.ts";
import { codexExec } from "./codex-exec.ts";
import { cohere } from "./cohere.ts";
import { gemini } from "./gemini.ts";
import { jsonRpcStdio } from "./jsonrpc-stdio.ts";
import { ollama } from "./ollama.ts";
import { openAiChat } from "./openai-chat.ts";
import { openAiRealtime } from "./openai-realtime.ts";
import { openAiResponses } from "./openai-responses.ts";
import { opencode } from "./opencode.ts";
import type { FramingCheck, HttpProviderFormat, StdioProviderFormat, WebSocketProviderFormat } from "./provider-format.ts";

/** Every HTTP provider's profile; typed exhaustively so a new provider must be listed. */
export const httpFormats: { readonly [P in HttpProvider]: HttpProviderFormat } = {
  "openai-chat": openAiChat,
  "openai-responses": openAiResponses,
  "anthropic-messages": anthropicMessages,
  gemini,
  ollama,
  bedrock,
  cohere,
  opencode,
};

/** Every WebSocket provider's profile. */
export const webSocketFormats: { readonly [P in WebSocketProvider]: WebSocketProviderFormat } = {
  "openai-realtime": openAiRealtime,
};

/** Every stdio provider's profile. */
export const stdioFormats: { readonly [P in StdioProvider]: StdioProviderFormat } = {
  "jsonrpc-stdio": jsonRpcStdio,
  "codex-app-server": codexAppServer,
  "codex-exec": codexExec,
  "claude-code": claudeCode,
};

/** A stdio profile's rules see the protocol's messages only: the agent's `spawn` arguments are the transport's. */
const withoutSpawn =
  (check: FramingCheck): FramingCheck =>
  (transcript) =>
    check({ ...transcript, entries: transcript.entries.filter((entry) => entry.type !== "expect_outbound" || entry.spawn === undefined) });

/** The framing rules of `transcript`'s provider. */
export const framingOf = (transcript: Transcript): FramingCheck => {
  const provider = transcript.meta.provider;
  if (isHttpProvider(provider)) return httpFormats[provider].checkFraming;
  if (isStdioProvider(provider)) return withoutSpawn(stdioFormats[provider].checkFraming);
  return webSocketFormats[provider].checkFraming;
};

/** The network profile (HTTP or WebSocket) that `replay-agent serve` serves `transcript` with, or the command that serves it instead. */
export const servedFormatFor = (
  transcript: Transcript,
): Effect.Effect<
  | { readonly transport: "http"; readonly format: HttpProviderFormat }
  | { readonly transport: "websocket"; readonly format: WebSocketProviderFormat },
  WrongTransportError
> => {
  const provider = transcript.meta.provider;
  if (isHttpProvider(provider)) return Effect.succeed({ transport: "http", format: httpFormats[provider] });
  if (!isStdioProvider(provider)) return Effect.succeed({ transport: "websocket", format: webSocketFormats[provider] });
  return Effect.fail(
    new WrongTransportError({
      file: transcript.file,
      provider,
      command: "serve",
      use: `replay-agent stdio --transcript ${transcript.file}, which the app spawns`,
    }),
  );
};

/** The stdio profile that serves `transcript`, or the command that serves it instead. */
export const stdioFormatFor = (transcript: Transcript): Effect.Effect<StdioProviderFormat, WrongTransportError> => {
  const provider = transcript.meta.provider;
  return isStdioProvider(provider)
    ? Effect.succeed(stdioFormats[provider])
    : Effect.fail(
        new WrongTransportError({
          file: transcript.file,
          provider,
          command: "stdio",
          use: `replay-agent serve --transcript ${transcript.file} and point the app's base URL at it`,
        }),
      );
};

/** The hosts a config's `route: true` sends to the replay agent for a transcript of `provider`: none for stdio. */
export const routedHostsOf = (provider: Provider): ReadonlyArray<string> =>
  isHttpProvider(provider) ? httpFormats[provider].hosts : isStdioProvider(provider) ? [] : webSocketFormats[provider].hosts;
