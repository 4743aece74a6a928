import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { MessageAssembly } from "./anthropic-message-assembly.ts";

// The events as the API sends them; the SDK yields each frame's JSON as it is.
const wire = (event: unknown) => event as RawMessageStreamEvent;

const messageStart = wire({
  type: "message_start",
  message: { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-6", content: [], stop_reason: null, usage: { input_tokens: 212, output_tokens: 1 } },
});
const blockStart = (index: number, block: object) => wire({ type: "content_block_start", index, content_block: block });
const text = (index: number, value: string) => wire({ type: "content_block_delta", index, delta: { type: "text_delta", text: value } });
const inputJson = (index: number, partial: string) => wire({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: partial } });
const blockStop = (index: number) => wire({ type: "content_block_stop", index });

function assemble(events: RawMessageStreamEvent[]): { assembly: MessageAssembly; texts: string[] } {
  const assembly = new MessageAssembly();
  const texts = events.map((event) => assembly.add(event));
  return { assembly, texts };
}

describe("MessageAssembly", () => {
  it("returns text as it arrives, assembles each tool_use input from its JSON fragments, and keeps the stop reason and usage", () => {
    const { assembly, texts } = assemble([
      messageStart,
      blockStart(0, { type: "text", text: "" }),
      text(0, "Let me look "),
      text(0, "at both — ✓."),
      blockStop(0),
      blockStart(1, { type: "tool_use", id: "toolu_a", name: "list_files", input: {} }),
      inputJson(1, ""),
      inputJson(1, '{"path": "s'),
      inputJson(1, 'rc"}'),
      blockStop(1),
      blockStart(2, { type: "tool_use", id: "toolu_b", name: "read_file", input: {} }),
      inputJson(2, '{"path": "README.md"}'),
      blockStop(2),
      wire({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 24 } }),
      wire({ type: "message_stop" }),
    ]);

    expect(texts.filter((t) => t !== "")).toEqual(["Let me look ", "at both — ✓."]);
    expect(assembly.text).toBe("Let me look at both — ✓.");
    expect(assembly.toolCalls()).toEqual([
      { id: "toolu_a", name: "list_files", arguments: '{"path": "src"}' },
      { id: "toolu_b", name: "read_file", arguments: '{"path": "README.md"}' },
    ]);
    expect(assembly.stopReason).toBe("tool_use");
    expect(assembly.usage).toEqual({ promptTokens: 212, completionTokens: 24 });
  });

  it("has no stop reason when the stream ends before message_delta", () => {
    const { assembly } = assemble([messageStart, blockStart(0, { type: "text", text: "" }), text(0, "Half")]);

    expect(assembly.stopReason).toBeNull();
  });
});
