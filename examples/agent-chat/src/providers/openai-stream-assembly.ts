import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";

export interface AssembledToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type FinishReason = ChatCompletionChunk.Choice["finish_reason"];

/**
 * Folds the chunks of one streamed chat completion into its text, tool calls, finish reason
 * and usage. A tool call is identified by its `index`: only its first delta carries `id` and
 * `function.name`, and its `arguments` arrive as fragments to concatenate.
 */
export class StreamAssembly {
  text = "";
  finishReason: FinishReason = null;
  usage: CompletionUsage | null = null;
  readonly #calls = new Map<number, AssembledToolCall>();

  /** Adds one chunk and returns the text it carries ("" when none). */
  add(chunk: ChatCompletionChunk): string {
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) return "";
    for (const delta of choice.delta.tool_calls ?? []) {
      const call = this.#calls.get(delta.index) ?? { id: "", name: "", arguments: "" };
      this.#calls.set(delta.index, {
        id: delta.id ?? call.id,
        name: delta.function?.name ?? call.name,
        arguments: call.arguments + (delta.function?.arguments ?? ""),
      });
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const text = choice.delta.content ?? "";
    this.text += text;
    return text;
  }

  toolCalls(): AssembledToolCall[] {
    return [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  }
}
