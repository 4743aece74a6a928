import { Anthropic } from "@anthropic-ai/sdk";
import type { ProviderSettings, TitleProvider } from "../provider.ts";

/** Threads' titles from Anthropic's Messages API, through the official `@anthropic-ai/sdk`: one whole answer each, not streamed. */
export function anthropicTitleProvider(settings: ProviderSettings): TitleProvider {
  // No retries, as for the reply: each title is exactly one request.
  const client = new Anthropic({ baseURL: settings.baseURL, apiKey: settings.apiKey, maxRetries: 0 });
  return { title: (message) => askTitle(client, settings.model, message) };
}

/** A title is a few words. */
const maxTokens = 32;

const system = "Write a title of at most six words for the conversation the user's message opens. Answer with the title alone.";

async function askTitle(client: Anthropic, model: string, message: string): Promise<string> {
  const answer = await client.messages.create({ model, max_tokens: maxTokens, system, messages: [{ role: "user", content: message }] });
  const title = answer.content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("")
    .trim();
  if (title === "") throw new Error(`the title model answered with no text (stop reason ${answer.stop_reason ?? "none"})`);
  return title;
}
