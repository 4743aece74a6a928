import { expect, test } from "../../index.ts";

test.use({ transcript: "./good-morning.ndjson" });

test("A message the transcript does not expect", async ({ app, page }) => {
  await app.open();
  await page.getByRole("textbox").fill("Hello there");
  await page.getByRole("textbox").press("Enter");
  await expect(page.getByTestId("turn-status")).toHaveText(/^(completed|failed)/);
});
