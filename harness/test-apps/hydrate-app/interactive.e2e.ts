import { expect, test } from "../../index.ts";

test("A click right after app.open() counts", async ({ app, page }) => {
  await app.open();
  await page.getByRole("button", { name: "Add one" }).click();
  await expect(page.locator("#count")).toHaveText("1");
});

test("A click right after app.open() with until a locator counts", async ({ app, page }) => {
  await app.open("/", { until: page.getByText("interactive") });
  await page.getByRole("button", { name: "Add one" }).click();
  await expect(page.locator("#count")).toHaveText("1");
});

test("A click right after app.open() with until an expression counts", async ({ app, page }) => {
  await app.open("/", { until: "document.getElementById('status').textContent === 'interactive'" });
  await page.getByRole("button", { name: "Add one" }).click();
  await expect(page.locator("#count")).toHaveText("1");
});
