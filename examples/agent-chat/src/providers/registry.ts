import type { ModelProvider, ProviderName, ProviderSettings, TitleProvider } from "../provider.ts";

// Every provider name has its module here, so a new name fails type-checking until it has one.
// Each module is imported only when its provider is chosen: an SDK takes a good part of the
// server's start to load, and a server talks to one provider.
const providers: Record<ProviderName, () => Promise<(settings: ProviderSettings) => ModelProvider>> = {
  openai: async () => (await import("./openai.ts")).openaiProvider,
  "openai-fetch": async () => (await import("./openai-fetch.ts")).openaiFetchProvider,
  anthropic: async () => (await import("./anthropic.ts")).anthropicProvider,
  ollama: async () => (await import("./ollama.ts")).ollamaProvider,
  codex: async () => (await import("./codex.ts")).codexProvider,
};

export async function createProvider(settings: ProviderSettings): Promise<ModelProvider> {
  const create = await providers[settings.name]();
  return create(settings);
}

/** The provider that titles threads (only `anthropic`, which readServerConfig checks); null when titles are not asked. */
export async function createTitleProvider(settings: ProviderSettings | null): Promise<TitleProvider | null> {
  if (settings === null) return null;
  return (await import("./anthropic-title.ts")).anthropicTitleProvider(settings);
}
