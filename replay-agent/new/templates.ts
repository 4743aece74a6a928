import { everyNewProvider, type EveryNewProvider, type NewProvider } from "../transcript/providers.ts";
import { anthropicMessagesTemplate } from "./anthropic-messages.ts";
import { bedrockTemplate } from "./bedrock.ts";
import { cohereTemplate } from "./cohere.ts";
import { geminiTemplate } from "./gemini.ts";
import { ollamaTemplate } from "./ollama.ts";
import { opencodeTraits } from "./opencode.ts";
import { openaiChatTemplate } from "./openai-chat.ts";
import { openaiResponsesTemplate } from "./openai-responses.ts";
import type { ProviderTemplate } from "./template.ts";

/** Every provider `replay-agent new` writes for, with its template; typed exhaustively so a new provider must have its own. */
export const providerTemplates: { readonly [P in NewProvider]: ProviderTemplate } = {
  "openai-chat": openaiChatTemplate,
  "openai-responses": openaiResponsesTemplate,
  "anthropic-messages": anthropicMessagesTemplate,
  gemini: geminiTemplate,
  ollama: ollamaTemplate,
  bedrock: bedrockTemplate,
  cohere: cohereTemplate,
};

/** What a description is checked against: whether the provider's answers show thinking, and whether its tool calls take ids. */
export const newTraits = (provider: EveryNewProvider): Pick<ProviderTemplate, "thinking" | "takesToolIds"> =>
  provider === "opencode" ? opencodeTraits : providerTemplates[provider];

/** The providers whose thinking `new` writes, as a phrase: "anthropic-messages, openai-responses and gemini". */
export const thinkingProviders: string = ((names) => `${names.slice(0, -1).join(", ")} and ${names.at(-1) ?? ""}`)(
  everyNewProvider.filter((provider) => newTraits(provider).thinking),
);
