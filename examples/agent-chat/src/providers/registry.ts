import type { ModelProvider, ProviderName, ProviderSettings } from "../provider.ts";

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
