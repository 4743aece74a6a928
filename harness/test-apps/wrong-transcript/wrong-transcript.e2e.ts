import { expect, test } from "../../index.ts";

test.use({ transcript: "./good-morning.ndjson" });

// The scenario's own steps pass: only the request the transcript does not expect fails it.
test("A message the transcript does not expect", async ({ app, page }) => {
  await app.open();
  await page.getByRole("textbox", { name: "question" }).fill("Hello there");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByRole("status")).toHaveText(/^(answered|failed: )/);
});
