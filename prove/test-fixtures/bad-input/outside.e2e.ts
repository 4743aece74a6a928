import { expect, test } from "../../../test-support/built-harness.ts";

// Outside the express config's testDir (prove/test-fixtures/express): the prover must say so.
test("the sum page opens", async ({ app, page }) => {
  await app.open("/app/");
  await expect(page.getByRole("heading", { name: "Sum" })).toBeVisible();
});
