import { newProviders, type NewHttpProvider, type NewProvider, type NewSessionProvider } from "../transcript/providers.ts";
import { anthropicMessagesTemplate } from "./anthropic-messages.ts";
import { bedrockTemplate } from "./bedrock.ts";
import { claudeCodeTemplate } from "./claude-code.ts";
import { codexAppServerTemplate } from "./codex-app-server.ts";
import { codexExecTemplate } from "./codex-exec.ts";
import { cohereTemplate } from "./cohere.ts";
import { geminiTemplate } from "./gemini.ts";
import { jsonRpcStdioTemplate } from "./jsonrpc-stdio.ts";
import { ollamaTemplate } from "./ollama.ts";
import { opencodeTraits } from "./opencode.ts";
import { openaiChatTemplate } from "./openai-chat.ts";
import { openaiRealtimeTemplate } from "./openai-realtime.ts";
import { openaiResponsesTemplate } from "./openai-responses.ts";
import type { SessionTemplate } from "./session-template.ts";
import type { ProviderTemplate } from "./template.ts";

/** Every HTTP provider `replay-agent new` writes for, with its template; typed exhaustively so a new provider must have its own. */
export const providerTemplates: { readonly [P in NewHttpProvider]: ProviderTemplate } = {
  "openai-chat": openaiChatTemplate,
  "openai-responses": openaiResponsesTemplate,
  "anthropic-messages": anthropicMessagesTemplate,
  gemini: geminiTemplate,
  ollama: ollamaTemplate,
  bedrock: bedrockTemplate,
  cohere: cohereTemplate,
};

/** Every message-based provider `replay-agent new` writes for, with its session template. */
export const sessionTemplates: { readonly [P in NewSessionProvider]: SessionTemplate } = {
  "openai-realtime": openaiRealtimeTemplate,
  "jsonrpc-stdio": jsonRpcStdioTemplate,
  "codex-app-server": codexAppServerTemplate,
  "codex-exec": codexExecTemplate,
  "claude-code": claudeCodeTemplate,
};

export const isSessionProvider = (provider: NewProvider): provider is NewSessionProvider => Object.hasOwn(sessionTemplates, provider);

/** What any template says of a provider: whether `new` writes its thinking, and whether its tool calls take a given id. */
export const templateOf = (provider: NewProvider): { readonly thinking: boolean; readonly takesToolIds: boolean } =>
  provider === "opencode" ? opencodeTraits : isSessionProvider(provider) ? sessionTemplates[provider] : providerTemplates[provider];

/** The providers whose thinking `new` writes, as a phrase: "anthropic-messages, openai-responses and gemini". */
export const thinkingProviders: string = ((names) => `${names.slice(0, -1).join(", ")} and ${names.at(-1) ?? ""}`)(
  newProviders.filter((provider) => templateOf(provider).thinking),
);
