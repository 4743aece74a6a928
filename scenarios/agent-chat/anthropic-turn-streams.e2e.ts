import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./anthropic-tour.ndjson", appEnv: { AGENT_CHAT_PROVIDER: "anthropic" } });

test("Against Anthropic's Messages API, a turn streams a reply, shows its tool call, and completes when the stream ends", async ({
  app,
  page,
  agent,
}) => {
  await app.project("demo", { "src/math.ts": "export const sum = 1 + 1;\n" });
  await app.open();
  const status = page.getByTestId("turn-status");
  const stop = page.getByRole("button", { name: "Stop generation" });

  await page.getByRole("textbox").fill("Give me a short tour");
  await page.getByRole("textbox").press("Enter");

  await agent.paused("mid-stream");
  await expect(page.getByText("Let me look at the project files.")).toBeVisible();
  await expect(page.getByText('list_files {"path": "src"}')).toBeVisible();
  await expect(page.getByText("The project has one file, src/math.ts,")).toBeVisible();
  await expect(stop).toBeVisible();
  await expect(status).toHaveText("running");
  await app.screenshot("streaming");

  await agent.resume();
  await expect(stop).toBeHidden();
  await expect(page.getByText("The project has one file, src/math.ts, which exports sum, the value of 1 + 1.")).toBeVisible();
  await expect(status).toHaveText("completed");
  await expect(status).toHaveAttribute("title", "480 prompt + 46 completion tokens");
  await app.screenshot("finished");
});
