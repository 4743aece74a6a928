import { expect, test } from "../../index.ts";

test("The page shows the API's data, then fails on purpose so that its processes' logs are kept", async ({ app, page }) => {
  await app.open();
  await expect(page.locator("#data")).toHaveText(/^data from the api on port \d+$/);
  expect(app.logs("worker")).toBe("worker ready\n");
  expect(
    app
      .logs()
      .split("\n")
      .filter((line) => line.startsWith("===")),
  ).toEqual(["=== web ===", "=== api ===", "=== worker ==="]);
  await expect(page.locator("#data"), "fails on purpose").toHaveText("stale data");
});
