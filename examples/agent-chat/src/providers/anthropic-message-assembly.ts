import type { RawMessageStreamEvent, StopReason } from "@anthropic-ai/sdk/resources/messages";
import type { TokenUsage } from "../events.ts";
import type { ModelToolCall } from "../provider.ts";

/**
 * Folds the events of one streamed Anthropic message into its text, tool calls, stop reason
 * and usage. A tool_use block opens with its id and name; its input arrives as JSON fragments
 * (`input_json_delta`) of that block's index, to concatenate. `message_delta` carries the stop
 * reason and the output tokens so far.
 */
export class MessageAssembly {
  text = "";
  stopReason: StopReason | null = null;
  usage: TokenUsage | null = null;
  readonly #toolUses = new Map<number, ModelToolCall>();

  /** Adds one event and returns the text it carries ("" when none). */
  add(event: RawMessageStreamEvent): string {
    switch (event.type) {
      case "message_start":
        this.usage = { promptTokens: event.message.usage.input_tokens, completionTokens: event.message.usage.output_tokens };
        return "";
      case "content_block_start":
        if (event.content_block.type === "tool_use") {
          this.#toolUses.set(event.index, { id: event.content_block.id, name: event.content_block.name, arguments: "" });
        }
        return "";
      case "content_block_delta": {
        const { delta } = event;
        if (delta.type === "text_delta") {
          this.text += delta.text;
          return delta.text;
        }
        const toolUse = this.#toolUses.get(event.index);
        if (delta.type === "input_json_delta" && toolUse) toolUse.arguments += delta.partial_json;
        return "";
      }
      case "message_delta":
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.usage = {
          promptTokens: event.usage.input_tokens ?? this.usage?.promptTokens ?? 0,
          completionTokens: event.usage.output_tokens,
        };
        return "";
      default:
        return "";
    }
  }

  /** The tool_use blocks, in the order they streamed. */
  toolCalls(): ModelToolCall[] {
    return [...this.#toolUses.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  }
}
