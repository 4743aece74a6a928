import { expect, test } from "../../index.ts";

// Both scenarios fail by design on a page that has settled (its status says so), so their last
// expect waits a second, not the config's ten.

test.use({ transcript: "./hello.ndjson" });

test.describe("assertion first", () => {
  test.use({ appEnv: { SUMMARY_ON_EXIT: "1" } });

  test("The reply is shown whole, and the app asks for a summary when it stops", async ({ app, page }) => {
    await app.open();
    await page.getByRole("textbox", { name: "question" }).fill("Hello there");
    await page.getByRole("button", { name: "Ask" }).click();
    await expect(page.getByRole("status")).toHaveText("answered");
    await expect(page.getByRole("heading")).toHaveText("Hello! How can I help?", { timeout: 1_000 });
  });
});

test("mismatch first: a question the transcript does not expect", async ({ app, page }) => {
  await app.open();
  await page.getByRole("textbox", { name: "question" }).fill("Good morning");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByRole("status")).toHaveText(/^failed: /);
  await expect(page.getByRole("heading")).toHaveText("Good morning to you.", { timeout: 1_000 });
});
