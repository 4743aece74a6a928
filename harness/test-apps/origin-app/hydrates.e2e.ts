import { expect, test } from "../../index.ts";

test("The page hydrates once its dev script loads", async ({ app, page }) => {
  await app.open();
  await expect(page.getByText("hydrated")).toBeVisible();
});
