import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "../../index.ts";

const run = promisify(execFile);

test("The app reads its own database, migrated and seeded by app.prepare, and the API beside it", async ({ app, page }) => {
  const db = app.services.db;
  expect(db?.url).toBe(`postgresql://postgres:postgres@127.0.0.1:${db?.port}/app`);
  await app.open();
  await expect(page.getByRole("listitem")).toHaveText(["Seeded by app.prepare"]);
  await expect(page.locator("#note")).toHaveText(`notes on port ${app.services.notes?.port}`);

  // A state the app's own UI cannot make, written through the database the test was given.
  await run("psql", [db?.url ?? "", "-Xqc", "INSERT INTO chats (title) VALUES ('Written by the scenario')"]);
  await page.reload();
  await expect(page.getByRole("listitem")).toHaveText(["Seeded by app.prepare", "Written by the scenario"]);
  expect(app.logs()).toMatch(/^\[notes\] notes api up$/m);
});
