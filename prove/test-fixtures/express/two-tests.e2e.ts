import { expect, test } from "../../../test-support/built-harness.ts";

test("adding 1 and 2 shows 3", async ({ app, page }) => {
  await app.open("/app/");
  await expect(page.getByRole("heading", { name: "Sum" })).toBeVisible();
});

test("adding -1 and 1 shows 0", async ({ app, page }) => {
  await app.open("/app/");
  await expect(page.getByRole("heading", { name: "Sum" })).toBeVisible();
});
