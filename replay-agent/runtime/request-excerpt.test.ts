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
