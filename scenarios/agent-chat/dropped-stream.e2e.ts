import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./dropped-stream.ndjson" });

test("When the provider drops the stream mid-answer, the turn ends as failed and the person can send again", async ({
  app,
  page,
  agent,
}) => {
  await app.open();
  const composer = page.getByRole("textbox");
  const statuses = page.getByTestId("turn-status");
  const stop = page.getByRole("button", { name: "Stop generation" });
  const send = page.getByRole("button", { name: "Send" });

  await composer.fill("Tell me a story about a lighthouse.");
  await composer.press("Enter");
  await agent.paused("mid-story");
  await expect(page.getByText("Once upon a time, a lighthouse keeper")).toBeVisible();
  await expect(stop).toBeVisible();
  await app.screenshot("streaming");

  await agent.resume();
  await expect(statuses).toHaveText([/^failed: /]);
  await expect(stop).toBeHidden();
  await expect(send).toBeVisible();
  await app.screenshot("dropped");

  await composer.fill("Please try again.");
  await composer.press("Enter");
  await expect(page.getByText("kept a light burning for ships that never came.")).toBeVisible();
  await expect(statuses).toHaveText([/^failed: /, "completed"]);
  await app.screenshot("answered-again");
});
