import { expect, test } from "../../../test-support/built-harness.ts";

// Line 3 of the transcript is cut short: the harness cannot start the replay agent, on either side.
test.use({ transcript: "./bad-transcript.ndjson" });

test("the sum page opens, with a transcript that cannot be loaded", async ({ app, page }) => {
  await app.open("/app/");
  await expect(page.getByRole("heading", { name: "Sum" })).toBeVisible();
});
