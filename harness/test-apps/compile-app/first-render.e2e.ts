import { expect, test } from "../../index.ts";

test("The compiled page shows at once", async ({ app, page }) => {
  await app.open();
  await expect(page.getByRole("heading", { name: "compiled page" })).toBeVisible();
});
