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

test.describe("an app handed the launcher's path", () => {
  test.use({ appEnv: { STDIO_APP_AGENT: "{replayExecutable}" } });

  test("The app runs the peer's launcher by its path, as an SDK runs its agent's binary", async ({ app, page, agent }) => {
    await app.open();
    await page.getByRole("button", { name: "Ask the agent" }).click();
    await agent.paused("mid-stream");
    await agent.resume();
    await expect(page.getByTestId("reply")).toHaveText("This project has an unused file. I deleted src/old.ts.");
    await expect(page.getByRole("status")).toHaveText("done: end_turn");
  });
});
