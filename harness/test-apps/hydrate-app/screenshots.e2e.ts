import { expect, test } from "../../index.ts";

test("Screenshots leave out dev tool launchers and keep error overlays", async ({ app, page }, testInfo) => {
  await app.open("/overlays", { until: "document.querySelector('nextjs-portal') !== null" });
  await app.screenshot("page");
  const card = page.locator("#card");
  await app.screenshot("card", card);
  await testInfo.attach("card-box", { body: JSON.stringify(await card.boundingBox()), contentType: "application/json" });
});

test("A failed test's screenshot leaves out dev tool launchers too", async ({ app, page }) => {
  await app.open("/overlays", { until: "document.querySelector('nextjs-portal') !== null" });
  expect(await page.locator("#card").count(), "fails on purpose, with the launchers on the page").toBe(0);
});
