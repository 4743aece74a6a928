import { describe, expect, it } from "vitest";
import { requestExcerpt } from "./request-excerpt.ts";

const post = (path: string, body: unknown) => ({ method: "POST", path, body });
const long = `${"a".repeat(199)}sk-proj-${"b".repeat(50)}`;

const table: ReadonlyArray<readonly [what: string, request: unknown, excerpt: string]> = [
  [
    "an Anthropic turn whose last message is text blocks",
    post("/v1/messages", {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Tidy up" },
            { type: "text", text: "src/" },
          ],
        },
      ],
    }),
    'last user message: "Tidy up\\nsrc/"',
  ],
  [
    "an Anthropic tool result, which holds no text block",
    post("/v1/messages", { messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "42" }] }] }),
    'last user message: [{"type":"tool_result","tool_use_id":"toolu_1","content":"42"}]',
  ],
  [
    "a Responses input given as a string",
    post("/v1/responses", { model: "gpt-4o-mini", input: "Name this thread" }),
    'input: "Name this thread"',
  ],
  [
    "a Responses input ending in a function call's output",
    post("/v1/responses", {
      input: [
        { role: "user", content: "Read it" },
        { type: "function_call_output", call_id: "call_1", output: "export const sum = 2;" },
      ],
    }),
    'last item (function_call_output): "export const sum = 2;"',
  ],
  [
    "a Gemini turn, its last content's text parts",
    post("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", {
      contents: [
        { role: "user", parts: [{ text: "Give me a short tour" }] },
        { role: "model", parts: [{ text: "This project has two files." }] },
        { role: "user", parts: [{ text: "Name this chat" }, { text: "in three words" }] },
      ],
    }),
    'last user message: "Name this chat\\nin three words"',
  ],
  [
    "a Gemini function response, which holds no text part",
    post("/v1beta/models/gemini-2.5-flash:generateContent", {
      contents: [{ role: "user", parts: [{ functionResponse: { name: "read_file", response: { content: "export const sum = 2;" } } }] }],
    }),
    'last user message: [{"functionResponse":{"name":"read_file","response":{"content":"export const sum = 2;"}}}]',
  ],
  [
    "a Cohere chat whose last message is a tool result",
    post("/v2/chat", {
      model: "command-a-03-2025",
      messages: [
        { role: "user", content: "What does src/math.ts export?" },
        {
          role: "tool",
          tool_call_id: "read_file_4ht3sdvq2m8z",
          content: [{ type: "document", document: { data: "export const sum = 2;" } }],
        },
      ],
    }),
    'last tool message: [{"type":"document","document":{"data":"export const sum = 2;"}}]',
  ],
  [
    "an Ollama generate prompt",
    post("/api/generate", { model: "llama3.2", prompt: "Why is the sky blue?" }),
    'prompt: "Why is the sky blue?"',
  ],
  [
    "a Bedrock Converse turn, its last message's text blocks",
    post("/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse", {
      messages: [{ role: "user", content: [{ text: "Name this chat" }, { image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } }] }],
    }),
    'last user message: "Name this chat"',
  ],
  [
    "an OpenAI Realtime message the app adds to the conversation",
    {
      type: "conversation.item.create",
      item: { type: "message", role: "user", content: [{ type: "input_text", text: "Summarize the README." }] },
    },
    'user message: "Summarize the README."',
  ],
  [
    "an OpenAI Realtime message as the server's status holds it",
    {
      method: "MESSAGE",
      path: "/v1/realtime?model=gpt-realtime",
      body: { type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] } },
    },
    'user message: "Hi"',
  ],
  [
    "an OpenAI Realtime function call output",
    { type: "conversation.item.create", item: { type: "function_call_output", call_id: "call_8Hd2kQ1x", output: '{"lines":42}' } },
    'item (function_call_output): "{\\"lines\\":42}"',
  ],
  ["a body that is not JSON", post("/v1/embeddings", "not json"), 'body: "not json"'],
  ["a request without a body", { method: "GET", path: "/v1/models", body: undefined }, "no body"],
  ["a JSON-RPC request", { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s1" } }, 'params: {"sessionId":"s1"}'],
  // Cut after 200 characters, the ellipsis right after them so a key cut there still looks like one.
  [
    "a long message",
    post("/v1/chat/completions", { messages: [{ role: "user", content: long }] }),
    `last user message: "${"a".repeat(199)}s…" (57 more characters)`,
  ],
];

describe("the excerpt that names an unexpected request", () => {
  it.each(table)("of %s", (_what, request, excerpt) => {
    expect(requestExcerpt(request)).toBe(excerpt);
  });
});
