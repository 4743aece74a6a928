import type { ModelCall, ModelProvider, ModelReply, ModelToolCall, ProviderSettings } from "../provider.ts";
import { toolDefinitions } from "../tools.ts";
import { NdjsonLineParser } from "./ndjson-lines.ts";

/** The server's address when OLLAMA_HOST is unset, as Ollama's own clients default to. */
const defaultHost = "http://127.0.0.1:11434";

/** One line of Ollama's streamed `/api/chat` answer: a piece of the message, and on the last line `done` and the counts. */
interface ChatLine {
  message?: { content?: string; tool_calls?: Array<{ function: { name: string; arguments: Record<string, unknown> } }> };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

/** Ollama's `/api/chat` with plain `fetch`: no SDK, the NDJSON stream read from `response.body` and parsed here. */
export function ollamaProvider(settings: ProviderSettings): ModelProvider {
  const url = `${(settings.baseURL ?? defaultHost).replace(/\/+$/, "")}/api/chat`;
  return { stream: (call) => streamChat(url, settings, call) };
}

/** The conversation as Ollama's chat messages: tool calls carry their arguments as objects, tool results their tool's name. */
function chatMessages(call: ModelCall): unknown[] {
  const names = new Map<string, string>();
  const messages: unknown[] = [{ role: "system", content: call.system }];
  for (const entry of call.conversation) {
    if (entry.role === "tool") {
      messages.push({ role: "tool", tool_name: names.get(entry.toolCallId) ?? "", content: entry.result });
    } else if (entry.role === "user" || entry.toolCalls.length === 0) {
      messages.push({ role: entry.role, content: entry.text });
    } else {
      for (const c of entry.toolCalls) names.set(c.id, c.name);
      messages.push({
        role: "assistant",
        content: entry.text,
        tool_calls: entry.toolCalls.map((c) => ({ function: { name: c.name, arguments: JSON.parse(c.arguments || "{}") as unknown } })),
      });
    }
  }
  return messages;
}

// One streamed chat, its text passed on line by line, read until the last line says done.
async function streamChat(url: string, settings: ProviderSettings, call: ModelCall): Promise<ModelReply> {
  const { onText, signal } = call;
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: settings.model,
      messages: chatMessages(call),
      tools: toolDefinitions.map((tool) => ({ type: "function", function: tool })),
      stream: true,
    }),
    signal,
  });
  if (!response.ok || response.body === null) throw new Error(`the provider answered ${response.status}: ${await response.text()}`);
  let text = "";
  const toolCalls: ModelToolCall[] = [];
  let last: ChatLine | undefined;
  const add = (chunk: ChatLine) => {
    if (chunk.error !== undefined) throw new Error(`the provider's stream failed: ${chunk.error}`);
    const piece = chunk.message?.content ?? "";
    if (piece !== "") {
      text += piece;
      onText(piece);
    }
    for (const toolCall of chunk.message?.tool_calls ?? []) {
      toolCalls.push({ id: `call_${toolCalls.length}`, name: toolCall.function.name, arguments: JSON.stringify(toolCall.function.arguments) });
    }
    if (chunk.done === true) last = chunk;
  };
  const lines = new NdjsonLineParser();
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    for (const line of lines.push(read.value)) add(JSON.parse(line) as ChatLine);
  }
  for (const line of lines.end()) add(JSON.parse(line) as ChatLine);
  if (last === undefined) throw new Error("the model's stream ended without its done line");
  return {
    text,
    stop: toolCalls.length > 0 ? "tool_calls" : "answered",
    toolCalls,
    usage:
      last.prompt_eval_count === undefined || last.eval_count === undefined
        ? null
        : { promptTokens: last.prompt_eval_count, completionTokens: last.eval_count },
  };
}
