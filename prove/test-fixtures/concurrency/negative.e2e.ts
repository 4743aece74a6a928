import { expect, test } from "../../../test-support/built-harness.ts";
import { writePlace } from "./where.ts";

test("adding -1 and 1 shows a total of 0", async ({ app, page }) => {
  await writePlace(app);
  await app.open("/app/");
  await page.getByLabel("a").fill("-1");
  await page.getByLabel("b").fill("1");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("status")).toHaveText("Total: 0");
});
