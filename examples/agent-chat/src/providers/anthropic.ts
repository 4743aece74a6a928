import { Anthropic } from "@anthropic-ai/sdk";
import type { ContentBlockParam, MessageParam, Tool } from "@anthropic-ai/sdk/resources/messages";
import type { ModelCall, ModelProvider, ModelReply, ModelToolCall, ProviderSettings } from "../provider.ts";
import { toolDefinitions } from "../tools.ts";
import { MessageAssembly } from "./anthropic-message-assembly.ts";

/** Anthropic's Messages API, streamed through the official `@anthropic-ai/sdk`. */
export function anthropicProvider(settings: ProviderSettings): ModelProvider {
  // No retries: a provider error shows at once, and each model call is exactly one request.
  const client = new Anthropic({ baseURL: settings.baseURL, apiKey: settings.apiKey, maxRetries: 0 });
  return { stream: (call) => streamMessage(client, settings.model, call) };
}

/** The Messages API requires a cap on the reply's length. */
const maxTokens = 4096;

const tools: Tool[] = toolDefinitions.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));

// One streamed message, its text passed on delta by delta, read until the provider ends the stream.
async function streamMessage(client: Anthropic, model: string, call: ModelCall): Promise<ModelReply> {
  const { onText, signal } = call;
  const stream = await client.messages.create(
    { model, max_tokens: maxTokens, system: call.system, messages: messages(call), tools, stream: true },
    { signal },
  );
  const assembly = new MessageAssembly();
  for await (const event of stream) {
    const text = assembly.add(event);
    if (text === "") continue;
    onText(text);
  }
  if (assembly.stopReason === null) throw new Error("the model's stream ended without a stop reason");
  return {
    text: assembly.text,
    stop: assembly.stopReason === "tool_use" ? "tool_calls" : "answered",
    toolCalls: assembly.toolCalls(),
    usage: assembly.usage,
  };
}

// Tool results go back as tool_result blocks of one user message, right after the assistant's tool_use blocks.
function messages(call: ModelCall): MessageParam[] {
  const result: MessageParam[] = [];
  for (const entry of call.conversation) {
    const last = result.at(-1);
    if (entry.role === "tool") {
      const block: ContentBlockParam = { type: "tool_result", tool_use_id: entry.toolCallId, content: entry.result };
      if (last?.role === "user" && Array.isArray(last.content)) last.content.push(block);
      else result.push({ role: "user", content: [block] });
    } else if (entry.role === "user" || entry.toolCalls.length === 0) {
      result.push({ role: entry.role, content: entry.text });
    } else {
      const text: ContentBlockParam[] = entry.text === "" ? [] : [{ type: "text", text: entry.text }];
      result.push({ role: "assistant", content: [...text, ...entry.toolCalls.map(toolUse)] });
    }
  }
  return result;
}

function toolUse(call: ModelToolCall): ContentBlockParam {
  return { type: "tool_use", id: call.id, name: call.name, input: toolInput(call.arguments) };
}

// The input as the model streamed it; a tool_use block with no input fragments has an empty input.
function toolInput(json: string): unknown {
  return JSON.parse(json === "" ? "{}" : json);
}
