import { expect, test } from "../../harness/index.ts";

test.use({ transcript: "./short-tour.ndjson" });

test("A replayed turn streams a reply, shows its tool calls, and finishes", async ({ app, screen, agent }) => {
  await app.project("demo", { "src/math.ts": "export const sum = 1 + 1;\n" });
  await app.open();
  await screen.getByRole("textbox").fill("Give me a short tour");
  await screen.getByRole("textbox").press("Enter");

  await agent.paused("mid-stream");
  await expect(screen.getByText('list_files {"path":"src"}')).toBeVisible();
  await expect(screen.getByText("The project has one file, `src/math.ts`,")).toBeVisible();
  await expect(screen.getByRole("button", { name: "Stop generation" })).toBeVisible();
  await app.screenshot("streaming");

  agent.resume();
  await expect(screen.getByRole("button", { name: "Stop generation" })).toBeHidden();
  await expect(screen.getByText("which exports `sum`, the value of 1 + 1.")).toBeVisible();
  await expect(screen.getByTestId("turn-status").last()).toHaveText("completed");
  await app.screenshot("finished");
});
