import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./short-tour.ndjson" });

test("A replayed turn streams a reply, shows its tool calls, and finishes", async ({ app, page, agent }) => {
  await app.project("demo", { "src/math.ts": "export const sum = 1 + 1;\n" });
  await app.open();
  await page.getByRole("textbox").fill("Give me a short tour");
  await page.getByRole("textbox").press("Enter");

  await agent.paused("mid-stream");
  await expect(page.getByText('list_files {"path":"src"}')).toBeVisible();
  await expect(page.getByText("The project has one file, src/math.ts,")).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop generation" })).toBeVisible();
  await app.screenshot("streaming");

  await agent.resume();
  await expect(page.getByRole("button", { name: "Stop generation" })).toBeHidden();
  await expect(page.getByText("which exports sum, the value of 1 + 1.")).toBeVisible();
  await expect(page.getByTestId("turn-status").last()).toHaveText("completed");
  await app.screenshot("finished");
});
