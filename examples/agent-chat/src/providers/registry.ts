import type { ModelProvider, ProviderName, ProviderSettings } from "../provider.ts";
import { anthropicProvider } from "./anthropic.ts";
import { openaiProvider } from "./openai.ts";

// Every provider name has its module here, so a new name fails type-checking until it has one.
const providers: Record<ProviderName, (settings: ProviderSettings) => ModelProvider> = {
  openai: openaiProvider,
  anthropic: anthropicProvider,
};

export function createProvider(settings: ProviderSettings): ModelProvider {
  return providers[settings.name](settings);
}
