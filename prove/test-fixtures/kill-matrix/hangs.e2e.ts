import { test } from "../../../test-support/built-harness.ts";

// Opens a page the app never answers, and so never ends by itself.
test("a page that never loads", async ({ app }) => {
  await app.open("/");
  await app.screenshot("opened");
  await app.open("/hang");
});
