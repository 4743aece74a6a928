import { expect, test } from "../../../test-support/built-harness.ts";
import { writePlace } from "../concurrency/where.ts";

test("adding 1 and 2 shows a total of 3", async ({ app, page }) => {
  await writePlace(app);
  await app.open("/app/");
  await page.getByLabel("a").fill("1");
  await page.getByLabel("b").fill("2");
  await app.screenshot("filled in");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("status")).toContainText("Total:");
  await app.screenshot("after add");
  await expect(page.getByRole("status")).toHaveText("Total: 3");
  await app.screenshot("total checked");
});
