import { expect, test } from "../../index.ts";

test("A reply streamed from the provider's own URL reaches the page frame by frame, and a call to another host is refused", async ({
  app,
  page,
  agent,
}) => {
  await app.open();
  await page.getByRole("button", { name: "Ask" }).click();
  // The words before the transcript's pause reach the page while the replay agent holds the rest: nothing on the way buffers them.
  await agent.paused("mid-reply");
  await expect(page.locator("pre")).toHaveText("Here is a");
  await agent.resume();
  await expect(page.locator("pre")).toHaveText("Here is a short tour of the museum.\nexample.com: 502");
  expect(agent.requests().map((request) => request.what)).toEqual([
    agent.provider === "openai-chat" ? "POST /v1/chat/completions" : "POST /v1/messages",
  ]);
});
