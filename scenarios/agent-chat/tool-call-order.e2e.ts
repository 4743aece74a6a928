import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./tool-call-order.ndjson" });

test("A tool call stays between the text before it and the answer after it, also after a reload", async ({ app, page, agent }) => {
  await app.project("demo", { "src/math.ts": "export const sum = 1 + 1;\n" });
  await app.open();
  const composer = page.getByRole("textbox");
  const thread = page.getByRole("log", { name: "Messages" }).locator("[data-role], [data-testid=tool-call] summary");
  const beforeAnswer = ["What is in src?", "Let me look.", 'list_files {"path":"src"}'];
  const answered = [...beforeAnswer, "There is one file in src: math.ts."];

  await composer.fill("What is in src?");
  await composer.press("Enter");
  await agent.paused("before-answer");
  await expect(thread).toHaveText(beforeAnswer);
  await app.screenshot("tool-called");

  await agent.resume();
  await expect(page.getByTestId("turn-status")).toHaveText(["completed"]);
  await expect(thread).toHaveText(answered);
  await app.screenshot("answered");

  await page.reload();
  await expect(page.getByTestId("turn-status")).toHaveText(["completed"]);
  await expect(thread).toHaveText(answered);
  await app.screenshot("after-reload");
});
