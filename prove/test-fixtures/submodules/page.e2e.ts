import { expect, test } from "../../../test-support/built-harness.ts";

test("the page from the submodule is served", async ({ app, page }) => {
  await app.open("/");
  await expect(page.getByRole("heading")).toHaveText("From the submodule");
  await app.screenshot("page");
});
