import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./two-tool-calls.ndjson" });

test("Two tool calls streamed in one response each show their own name and arguments, and the model gets both results", async ({
  app,
  page,
  agent,
}) => {
  await app.project("demo", { "README.md": "# Demo\n\nAdds numbers.\n", "src/math.ts": "export const sum = 1 + 1;\n" });
  await app.open();
  const composer = page.getByRole("textbox");
  const toolCalls = page.getByTestId("tool-call");

  await composer.fill("What do README.md and src/math.ts say?");
  await composer.press("Enter");
  await agent.paused("before-tool-calls");
  await expect(page.getByText("I'll read both files.")).toBeVisible();
  await app.screenshot("asked");

  await agent.resume();
  await expect(page.getByText("src/math.ts exports sum, the value of 1 + 1.")).toBeVisible();
  await expect(toolCalls.locator("summary")).toHaveText(['read_file {"path":"README.md"}', 'read_file {"path":"src/math.ts"}']);
  await toolCalls.locator("summary").first().click();
  await toolCalls.locator("summary").last().click();
  await expect(toolCalls.locator(".tool-result")).toHaveText(["# Demo\n\nAdds numbers.\n", "export const sum = 1 + 1;\n"]);
  await app.screenshot("tool-calls");

  const [, secondRequest] = agent.requests();
  expect(secondRequest?.body).toMatchObject({
    messages: [
      { role: "system" },
      { role: "user", content: "What do README.md and src/math.ts say?" },
      {
        role: "assistant",
        content: "I'll read both files.",
        tool_calls: [
          { id: "call_readme", type: "function", function: { name: "read_file", arguments: '{"path":"README.md"}' } },
          { id: "call_math", type: "function", function: { name: "read_file", arguments: '{"path":"src/math.ts"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_readme", content: "# Demo\n\nAdds numbers.\n" },
      { role: "tool", tool_call_id: "call_math", content: "export const sum = 1 + 1;\n" },
    ],
  });
  await expect(page.getByTestId("turn-status")).toHaveText(["completed"]);
});
