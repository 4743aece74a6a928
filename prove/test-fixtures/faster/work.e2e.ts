import { measureAnnotation, measureMetrics, type MeasureMetadata } from "../../../common/contract.ts";
import { expect, test } from "../../../test-support/built-harness.ts";

test("the work button does its work and says done", async ({ app, page }) => {
  await app.open("/app/");
  // Until the harness's app.measure lands, the block's time is the page's own (its clock around the work,
  // window.workMs) and is noted in the contract's annotation, as app.measure("work", …) will note it.
  await page.getByRole("button", { name: "Work" }).click();
  const ms = await page.evaluate(() => (window as unknown as { workMs: number }).workMs);
  const metrics = Object.fromEntries(measureMetrics.map((metric) => [metric, 0])) as Record<(typeof measureMetrics)[number], number>;
  const block: MeasureMetadata = { label: "work", metrics: { ...metrics, task: ms, wall: ms } };
  test.info().annotations.push({ type: measureAnnotation, description: JSON.stringify(block) });
  await expect(page.getByRole("status")).toHaveText("done");
});
