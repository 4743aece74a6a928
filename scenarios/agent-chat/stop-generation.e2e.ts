import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./stop-mid-reply.ndjson" });

test("Stop generation ends the reply where it is, marks the turn interrupted, and lets the person ask again", async ({
  app,
  page,
  agent,
}) => {
  await app.open();
  const composer = page.getByRole("textbox");
  const statuses = page.getByTestId("turn-status");
  const stop = page.getByRole("button", { name: "Stop generation" });

  await composer.fill("Write a long poem about the sea.");
  await composer.press("Enter");
  await agent.paused("mid-poem");
  await expect(page.getByText("The sea is wide, the sea is deep,")).toBeVisible();
  await expect(stop).toBeVisible();
  await app.screenshot("streaming");

  await stop.click();
  await expect(statuses).toHaveText(["interrupted"]);
  await expect(stop).toBeHidden();
  await app.screenshot("stopped");

  // The app has hung up; let the held answer end, then ask for something shorter.
  await agent.resume();
  await composer.fill("Just two lines, please.");
  await composer.press("Enter");
  await expect(page.getByText("the sea keeps what it talks about.")).toBeVisible();
  await expect(statuses).toHaveText(["interrupted", "completed"]);
  await app.screenshot("asked-again");
});
