import { expect, test } from "../../index.ts";

test("waits on a hung page until the run is interrupted", async ({ app, page }) => {
  await app.open("/");
  await expect(page.getByText("never shown")).toBeVisible({ timeout: 120_000 });
});
