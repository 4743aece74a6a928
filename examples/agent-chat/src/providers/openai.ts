import { OpenAI } from "openai";
import type { ModelCall, ModelProvider, ModelReply, ProviderSettings } from "../provider.ts";
import { chatMessages, tools } from "./openai-chat-request.ts";
import { StreamAssembly } from "./openai-stream-assembly.ts";

/** OpenAI chat completions, streamed through the official `openai` SDK. */
export function openaiProvider(settings: ProviderSettings): ModelProvider {
  // No retries: a provider error shows at once, and each model call is exactly one request.
  const client = new OpenAI({ baseURL: settings.baseURL, apiKey: settings.apiKey, maxRetries: 0 });
  return { stream: (call) => streamCompletion(client, settings.model, call) };
}

// One streamed chat completion, its text passed on delta by delta, read until the provider ends the stream.
async function streamCompletion(client: OpenAI, model: string, call: ModelCall): Promise<ModelReply> {
  const { onText, signal } = call;
  const stream = await client.chat.completions.create(
    { model, messages: chatMessages(call), tools, stream: true, stream_options: { include_usage: true } },
    { signal },
  );
  const assembly = new StreamAssembly();
  for await (const chunk of stream) {
    const text = assembly.add(chunk);
    if (text === "") continue;
    onText(text);
  }
  if (assembly.finishReason === null) throw new Error("the model's stream ended without a finish reason");
  return {
    text: assembly.text,
    stop: assembly.finishReason === "tool_calls" ? "tool_calls" : "answered",
    toolCalls: assembly.toolCalls(),
    usage: assembly.usage === null ? null : { promptTokens: assembly.usage.prompt_tokens, completionTokens: assembly.usage.completion_tokens },
  };
}
