import { test } from "../../../test-support/built-harness.ts";

// Fills in a field the sum page does not have: in a proof, the fill waits as long as an assertion would.
test("filling in a field the page does not have", async ({ app, page }) => {
  await app.open("/app/");
  await page.getByLabel("c").fill("3");
});
