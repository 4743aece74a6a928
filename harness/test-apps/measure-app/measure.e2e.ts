import { measureAnnotation } from "../../../common/contract.ts";
import { expect, test } from "../../index.ts";

test("A heavy click and a light one, each measured", async ({ app, page }) => {
  await app.open();
  // Each handler runs in the click's own task, so the block is the click alone: expect's polling would count in its work.
  const heavy = await app.measure("heavy", () => page.getByRole("button", { name: "heavy" }).click());
  await expect(page.getByText("done: heavy")).toBeVisible();
  await app.measure("light", () => page.getByRole("button", { name: "light" }).click());
  await expect(page.getByText("done: light")).toBeVisible();
  // What app.measure() returns is what it noted.
  const noted = test.info().annotations.filter((annotation) => annotation.type === measureAnnotation);
  expect(JSON.parse(noted[0]?.description ?? "")).toMatchObject({ label: "heavy", metrics: heavy });
});

test.describe("with the CPU slowed down", () => {
  test.use({ cpuSlowdown: 4 });

  test("A light click measured at the test's CPU slowdown", async ({ app, page }) => {
    await app.open();
    await app.measure("light, slowed down", () => page.getByRole("button", { name: "light" }).click());
    await expect(page.getByText("done: light")).toBeVisible();
  });
});

test("A block that throws rejects with its own error, and the next block is measured", async ({ app, page }) => {
  await app.open();
  const failure = new Error("the list did not render");
  await expect(app.measure("throws", () => Promise.reject(failure))).rejects.toBe(failure);
  await app.measure("after the throw", () => page.getByRole("button", { name: "light" }).click());
});

test("A block without a label, one whose label was used, and one that navigates are refused", async ({ app, page }) => {
  await app.open();
  await expect(app.measure(" ", () => Promise.resolve())).rejects.toThrow(
    'app.measure() needs a label naming the block, e.g. app.measure("send a message", ...).',
  );
  await app.measure("light", () => page.getByRole("button", { name: "light" }).click());
  await expect(app.measure("light", () => Promise.resolve())).rejects.toThrow(
    'app.measure("light"): this test has measured a block of that label already: give each block its own label.',
  );
  await expect(
    app.measure("navigates", () =>
      page
        .getByRole("link", { name: "other page" })
        .click()
        .then(() => page.waitForURL("**/other")),
    ),
  ).rejects.toThrow(/^app\.measure\("navigates"\): the page navigated while the block ran \(now at http:\/\/127\.0\.0\.1:\d+\/other\)/);
});
