import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./capital-split-line.ndjson", appEnv: { AGENT_CHAT_PROVIDER: "ollama" } });

test("A line Ollama's NDJSON stream cuts across two reads still shows its text: the whole reply, no word missing", async ({
  app,
  page,
  agent,
}) => {
  await app.open();
  const composer = page.getByRole("textbox");
  const reply = page.locator('[data-role="assistant"]');

  await composer.fill("What is the capital of France?");
  await composer.press("Enter");
  // The stream is held in the middle of the line that carries " Paris". The line before it went out
  // in the same write as that line's first piece, so once the page shows its text the app has read
  // the first piece; the rest is written only on resume, and reaches the app in a later read.
  await agent.paused("half-line");
  await expect(reply).toHaveText("The capital of France is");
  await app.screenshot("half-line");

  await agent.resume();
  await expect(reply).toHaveText("The capital of France is Paris, on the Seine.");
  await expect(page.getByTestId("turn-status")).toHaveText("completed");
  await app.screenshot("answered");
});
