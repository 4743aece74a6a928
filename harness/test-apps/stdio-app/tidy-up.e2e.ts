import { expect, test } from "../../index.ts";

test.use({ transcript: "./tidy-up.ndjson" });

test("The app spawns the agent command it was handed, and the stream holds at a pause until the scenario resumes it", async ({
  app,
  page,
  agent,
}) => {
  const status = page.getByRole("status");
  const reply = page.getByTestId("reply");
  await app.open();
  await page.getByRole("button", { name: "Ask the agent" }).click();

  await agent.paused("mid-stream");
  await expect(reply).toHaveText("This project has an unused file.");
  await expect(status).toHaveText("streaming");
  await app.screenshot("mid-stream");

  await agent.resume();
  await expect(reply).toHaveText("This project has an unused file. I deleted src/old.ts.");
  await expect(status).toHaveText("done: end_turn");
  await app.screenshot("done");
});
