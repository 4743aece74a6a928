import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./finish-then-usage.ndjson" });

test("A turn stays running until the provider's stream ends, then shows completed with its token usage", async ({ app, page, agent }) => {
  await app.open();
  const composer = page.getByRole("textbox");
  const status = page.getByTestId("turn-status");
  const stop = page.getByRole("button", { name: "Stop generation" });

  await composer.fill("How do you say hello in French?");
  await composer.press("Enter");
  await agent.paused("mid-answer");
  await expect(page.getByText("In French, hello is")).toBeVisible();
  await expect(status).toHaveText("running");
  await app.screenshot("streaming");

  // The finish_reason chunk has arrived; the usage chunk and [DONE] are held back.
  await agent.resume();
  await agent.paused("before-usage");
  await expect(page.getByText('In French, hello is "bonjour".')).toBeVisible();
  await app.screenshot("finish-reason-received");
  await expect(status).toHaveText("running");
  await expect(stop).toBeVisible();

  await agent.resume();
  await expect(status).toHaveText("completed");
  await expect(status).toHaveAttribute("title", "118 prompt + 9 completion tokens");
  await expect(stop).toBeHidden();
  await app.screenshot("stream-ended");
});
