import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./helper-agent-turn.ndjson", appEnv: { AGENT_CHAT_PROVIDER: "codex", CODEX_COMMAND: "{replayCommand}" } });

test("A helper agent finishing its own turn does not end the reply: the turn runs until the main agent's turn completes", async ({
  app,
  page,
  agent,
}) => {
  await app.open();
  const composer = page.getByRole("textbox");
  const reply = page.locator('[data-role="assistant"]');
  const status = page.getByTestId("turn-status");

  await composer.fill("What does src export? Ask a helper to check.");
  await composer.press("Enter");
  // Codex has streamed the main agent's first sentence, then the helper agent's whole turn on its
  // own thread; the main turn is still running when the helper's turn/completed has gone out.
  await agent.paused("helper-done");
  await expect(reply).toHaveText("I asked a helper to read src.");
  await app.screenshot("helper-done");
  await expect(page.getByRole("button", { name: "Stop generation" })).toBeVisible();

  await agent.resume();
  await expect(reply).toHaveText("I asked a helper to read src. It says src/math.ts exports sum.");
  await expect(status).toHaveText("completed");
  await app.screenshot("answered");
});
