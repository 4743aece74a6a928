import { expect, test } from "../../../test-support/built-harness.ts";

test("the work button does its work and says done", async ({ app, page }) => {
  await app.open("/app/");
  await app.measure("work", async () => {
    await page.getByRole("button", { name: "Work" }).click();
    await expect(page.getByRole("status")).toHaveText("done");
  });
});
