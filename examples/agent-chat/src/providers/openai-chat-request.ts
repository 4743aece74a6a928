// The messages and tools of a chat completions request, shared by both OpenAI providers. Only the SDK's
// types are imported here, so the fetch provider loads none of the SDK.
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ModelCall } from "../provider.ts";
import { toolDefinitions } from "../tools.ts";

export const tools: ChatCompletionFunctionTool[] = toolDefinitions.map((tool) => ({ type: "function", function: tool }));

export function chatMessages(call: ModelCall): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: "system", content: call.system }];
  for (const entry of call.conversation) {
    if (entry.role === "tool") {
      messages.push({ role: "tool", tool_call_id: entry.toolCallId, content: entry.result });
    } else if (entry.role === "user" || entry.toolCalls.length === 0) {
      messages.push({ role: entry.role, content: entry.text });
    } else {
      messages.push({
        role: "assistant",
        content: entry.text === "" ? null : entry.text,
        tool_calls: entry.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
      });
    }
  }
  return messages;
}
