import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./capital-split-event.ndjson", appEnv: { AGENT_CHAT_PROVIDER: "openai-fetch" } });

test("An event the provider's stream cuts across two reads still shows its text: the whole reply, no word missing", async ({
  app,
  page,
  agent,
}) => {
  await app.open();
  const composer = page.getByRole("textbox");
  const reply = page.locator('[data-role="assistant"]');

  await composer.fill("What is the capital of France?");
  await composer.press("Enter");
  // The stream is held in the middle of the event that carries " Paris". The event before it went
  // out in the same write as that event's first piece, so once the page shows its text the app has
  // read the first piece; the rest is written only on resume, and reaches the app in a later read.
  await agent.paused("half-event");
  await expect(reply).toHaveText("The capital of France is");
  await app.screenshot("half-event");

  await agent.resume();
  await expect(reply).toHaveText("The capital of France is Paris, on the Seine.");
  await expect(page.getByTestId("turn-status")).toHaveText("completed");
  await app.screenshot("answered");
});
