import { expect, test } from "../../harness/index.ts";

// About 1,400 tokens of Markdown at 200 tokens a second, a fast model's pace (its meta line's pace), held at pause "reply-streamed" after its last delta.
test.use({ transcript: "./long-markdown-reply.ndjson" });

test("A long reply streams as Markdown, and shows what the finished reply shows: headings, lists and code", async ({
  app,
  page,
  agent,
}) => {
  await app.open();
  const reply = page.locator('[data-role="assistant"]');
  await page.getByRole("textbox").fill("How do I add rate limiting to our API?");

  // What the page's main thread does while the reply streams: `prove-scenario --faster task` compares it across commits.
  await app.measure("stream the reply", async () => {
    await page.getByRole("textbox").press("Enter");
    await agent.paused("reply-streamed");
    await expect(reply).toContainText("If you tell me which framework your routes use, I can adapt the middleware to it.");
  });

  await expect(reply.getByRole("heading", { level: 1 })).toHaveText("Adding a rate limiter to the API");
  await expect(reply.getByRole("heading", { level: 2 })).toHaveText([
    "1. Choose the algorithm",
    "2. Write the limiter",
    "3. Wire it into the routes",
    "4. Test it",
    "5. Share the buckets across processes",
  ]);
  await expect(reply.getByRole("listitem").first()).toHaveText(/^Fixed window: count the requests in each minute/);
  await expect(reply.locator("strong").first()).toHaveText("Fixed window");
  await expect(reply.locator("pre > code.language-ts")).toHaveCount(5);
  await expect(reply.locator("pre > code").first()).toContainText("export class TokenBucketLimiter {");
  await app.screenshot("streamed");
  const streamed = await reply.innerHTML();

  // The finished turn renders the reply again from its whole text: the same HTML as the one built delta by delta.
  await agent.resume();
  await expect(page.getByTestId("turn-status")).toHaveText("completed");
  expect(await reply.innerHTML()).toBe(streamed);
  await expect(page.getByRole("log", { name: "Messages" }).locator('[data-role="user"]')).toHaveText(
    "How do I add rate limiting to our API?",
  );
});
