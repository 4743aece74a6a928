import { expect, test } from "../../harness/index.ts";

// Two providers: the reply streams from OpenAI chat completions (the first transcript, `{replay}` in the config), and the
// thread's title is asked of Anthropic's Messages API beside it (`{replay.title}`), its answer held until the reply is done.
test.use({
  transcript: { chat: "./bonjour-reply.ndjson", title: "./bonjour-title.ndjson" },
  appEnv: { AGENT_CHAT_TITLE_PROVIDER: "anthropic", ANTHROPIC_BASE_URL: "{replay.title}" },
});

test("A thread's title asked of a second provider does not hold up the reply: the turn completes while the title is pending, and the title shows when it comes", async ({
  app,
  page,
  agent,
}) => {
  await app.open();
  const composer = page.getByRole("textbox");
  const heading = page.getByRole("heading", { level: 1 });
  const status = page.getByTestId("turn-status");
  const stop = page.getByRole("button", { name: "Stop generation" });
  const title = agent.of("title");

  await composer.fill("How do you say hello in French?");
  await composer.press("Enter");
  await title.paused("title-held");
  await agent.paused("mid-answer");
  await expect(page.getByText("In French, hello")).toBeVisible();
  await expect(status).toHaveText("running");
  await expect(heading).toHaveText("How do you say hello in French?");
  await app.screenshot("streaming");

  // The reply's stream ends while the title's answer is still held: the turn ends with the stream.
  await agent.resume();
  await expect(page.getByText('In French, hello is "bonjour".')).toBeVisible();
  await expect(status).toHaveText("completed");
  await expect(stop).toBeHidden();
  await expect(page.getByTestId("turn-usage")).toHaveText("20 prompt + 8 completion tokens");
  await expect(heading).toHaveText("How do you say hello in French?");
  expect(title.status().held).toEqual([expect.objectContaining({ name: "title-held" })]);
  await app.screenshot("replied");

  await title.resume();
  await expect(heading).toHaveText("Saying hello in French");
  await expect(page.getByRole("link", { name: /Saying hello in French/ })).toHaveAttribute("aria-current", "page");
  expect(title.requests()).toEqual([expect.objectContaining({ what: "POST /v1/messages", matched: true })]);
  await app.screenshot("titled");
});
