import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./two-capitals.ndjson" });

test("Reloading the page shows the same messages in the same order", async ({ app, page }) => {
  await app.open();
  const composer = page.getByRole("textbox");
  const statuses = page.getByTestId("turn-status");
  const messages = page.locator("[data-role=user], [data-role=assistant]");
  const conversation = [
    "What is the capital of France?",
    "The capital of France is Paris.",
    "And of Italy?",
    "The capital of Italy is Rome.",
  ];

  await composer.fill("What is the capital of France?");
  await composer.press("Enter");
  await expect(statuses).toHaveText(["completed"]);
  await composer.fill("And of Italy?");
  await composer.press("Enter");
  await expect(statuses).toHaveText(["completed", "completed"]);
  await expect(messages).toHaveText(conversation);
  await app.screenshot("before-reload");

  await page.reload();
  await expect(messages).toHaveText(conversation);
  await expect(statuses).toHaveText(["completed", "completed"]);
  await app.screenshot("after-reload");
});
