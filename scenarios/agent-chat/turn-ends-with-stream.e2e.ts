import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./finish-then-usage.ndjson" });

test("A turn stays running until the provider's stream ends, then shows completed with its token usage", async ({ app, page, agent }) => {
  await app.open();
  const composer = page.getByRole("textbox");
  const status = page.getByTestId("turn-status");
  const usage = page.getByTestId("turn-usage");
  const stop = page.getByRole("button", { name: "Stop generation" });

  await composer.fill("How do you say hello in French?");
  await composer.press("Enter");
  await agent.paused("mid-answer");
  await expect(page.getByText("In French, hello is")).toBeVisible();
  await expect(status).toHaveText("running");
  await expect(stop).toBeVisible();
  await app.screenshot("streaming");

  // The finish_reason chunk has arrived; the usage chunk and [DONE] are held back. Whether the
  // page already shows a turn that completed too early depends on when the browser hears of it,
  // so the early completion is proved by what it loses: the usage chunk, checked once the stream
  // has ended. Here only what holds whenever the page looks: the whole reply, and no usage yet.
  await agent.resume();
  await agent.paused("before-usage");
  await expect(page.getByText('In French, hello is "bonjour".')).toBeVisible();
  await expect(usage).toHaveCount(0);
  await app.screenshot("finish-reason-received");

  // The turn ends with the stream: completed, carrying the usage the stream sent last.
  await agent.resume();
  await expect(status).toHaveText("completed");
  await expect(stop).toBeHidden();
  await expect(usage).toHaveText("118 prompt + 9 completion tokens");
  await app.screenshot("completed-with-usage");
});
