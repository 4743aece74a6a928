import { expect, test } from "../../../test-support/built-harness.ts";

test("three notebooks at $2.49 are priced at $7.47", async ({ app, page }) => {
  await app.open("/");
  await page.getByLabel("Item").selectOption("Notebook");
  await page.getByLabel("Quantity").fill("3");
  await page.getByRole("button", { name: "Order" }).click();
  // The worker prices the order and the page shows it done, on both sides: on a busy machine next dev can take longer
  // than the proof's short expect timeout, which is for the assertion that tells base from head (the last).
  await expect(page.getByRole("listitem")).toContainText("done", { timeout: 30_000 });
  // It is order 1, as each run has a database of its own.
  await app.screenshot("order priced");
  await expect(page.getByRole("listitem")).toHaveText("Order 1: 3 × Notebook, done, $7.47");
});
