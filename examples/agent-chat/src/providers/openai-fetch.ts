import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ModelCall, ModelProvider, ModelReply, ProviderSettings } from "../provider.ts";
import { chatMessages, tools } from "./openai-chat-request.ts";
import { StreamAssembly } from "./openai-stream-assembly.ts";
import { EventStreamParser } from "./server-sent-events.ts";

/** The API's endpoint when OPENAI_BASE_URL is unset, as the SDK's. */
const defaultBaseURL = "https://api.openai.com/v1";

/** OpenAI chat completions with plain `fetch`: no SDK, the event stream read from `response.body` and parsed here. */
export function openaiFetchProvider(settings: ProviderSettings): ModelProvider {
  const url = `${(settings.baseURL ?? defaultBaseURL).replace(/\/+$/, "")}/chat/completions`;
  return { stream: (call) => streamCompletion(url, settings, call) };
}

// One streamed chat completion, its text passed on delta by delta, read until the provider closes the stream.
async function streamCompletion(url: string, settings: ProviderSettings, call: ModelCall): Promise<ModelReply> {
  const { onText, signal } = call;
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${settings.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model: settings.model, messages: chatMessages(call), tools, stream: true, stream_options: { include_usage: true } }),
    signal,
  });
  if (!response.ok || response.body === null) throw new Error(`the provider answered ${response.status}: ${await response.text()}`);
  const assembly = new StreamAssembly();
  const events = new EventStreamParser();
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    for (const data of events.push(read.value)) {
      if (data === "[DONE]") continue;
      const text = assembly.add(JSON.parse(data) as ChatCompletionChunk);
      if (text !== "") onText(text);
    }
  }
  if (assembly.finishReason === null) throw new Error("the model's stream ended without a finish reason");
  return {
    text: assembly.text,
    stop: assembly.finishReason === "tool_calls" ? "tool_calls" : "answered",
    toolCalls: assembly.toolCalls(),
    usage: assembly.usage === null ? null : { promptTokens: assembly.usage.prompt_tokens, completionTokens: assembly.usage.completion_tokens },
  };
}
