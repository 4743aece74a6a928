import { expect, test } from "../../../test-support/built-harness.ts";

// On base the app shows a wrong total with a debug token beside it: the error message, the trace and report.md get that token.
test("adding 1 and 2 shows a total of 3, and no debug token", async ({ app, page }) => {
  await app.open("/app/");
  await page.getByLabel("a").fill("1");
  await page.getByLabel("b").fill("2");
  await page.getByRole("button", { name: "Add" }).click();
  await app.screenshot("after add");
  await expect(page.getByRole("status")).toHaveText("Total: 3");
});
