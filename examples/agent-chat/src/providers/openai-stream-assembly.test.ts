import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { StreamAssembly } from "./openai-stream-assembly.ts";

type Delta = ChatCompletionChunk.Choice.Delta;

function chunk(delta: Delta, finishReason: ChatCompletionChunk.Choice["finish_reason"] = null): ChatCompletionChunk {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1764500000,
    model: "gpt-4o-mini",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

function assemble(chunks: ChatCompletionChunk[]): { assembly: StreamAssembly; texts: string[] } {
  const assembly = new StreamAssembly();
  const texts = chunks.map((c) => assembly.add(c));
  return { assembly, texts };
}

describe("StreamAssembly", () => {
  it("assembles interleaved tool calls by index; id and name come only in each call's first delta", () => {
    const { assembly } = assemble([
      chunk({ role: "assistant", content: "" }),
      chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "list_files", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
      chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"src"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '"src/math.ts"}' } }] }),
      chunk({}, "tool_calls"),
    ]);

    expect(assembly.finishReason).toBe("tool_calls");
    expect(assembly.toolCalls()).toEqual([
      { id: "call_a", name: "list_files", arguments: '{"path":"src"}' },
      { id: "call_b", name: "read_file", arguments: '{"path":"src/math.ts"}' },
    ]);
  });

  it("returns each chunk's text as it arrives and keeps the usage of the final chunk", () => {
    const usageChunk: ChatCompletionChunk = {
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: 120, completion_tokens: 8, total_tokens: 128 },
    };
    const { assembly, texts } = assemble([
      chunk({ role: "assistant", content: "" }),
      chunk({ content: "The capital of France " }),
      chunk({ content: "is Paris — café ✓." }),
      chunk({}, "stop"),
      usageChunk,
    ]);

    expect(texts).toEqual(["", "The capital of France ", "is Paris — café ✓.", "", ""]);
    expect(assembly.text).toBe("The capital of France is Paris — café ✓.");
    expect(assembly.finishReason).toBe("stop");
    expect(assembly.usage).toEqual({ prompt_tokens: 120, completion_tokens: 8, total_tokens: 128 });
    expect(assembly.toolCalls()).toEqual([]);
  });

  it("has no finish reason when the stream ends before one arrives", () => {
    const { assembly } = assemble([chunk({ content: "Half" })]);

    expect(assembly.finishReason).toBeNull();
  });
});
