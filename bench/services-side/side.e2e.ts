import { expect, test } from "../../harness/index.ts";

test("The app answers", async ({ app, page }) => {
  await app.open();
  await expect(page.locator("body")).toHaveText("ok");
});
