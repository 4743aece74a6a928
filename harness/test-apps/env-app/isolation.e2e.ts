import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { expect, test } from "../../index.ts";

test("The app sees an allowlisted environment and none of the runner's secrets", async ({ app, agent, page }) => {
  const planted = [process.env.OPENAI_API_KEY, process.env.GH_TOKEN];
  expect(planted.every((value) => value !== undefined && value.length > 8)).toBe(true);

  const seen = await readFile(join(app.home, "env.json"), "utf8");
  const env: Record<string, string> = JSON.parse(seen);
  for (const secret of planted) expect(seen).not.toContain(secret);
  expect(env.GH_TOKEN).toBeUndefined();
  expect(env.OPENAI_API_KEY).toBe("replay");
  expect(env.OPENAI_BASE_URL).toBe(`${agent.url}/v1`);
  expect(env.ENV_APP_HOME).toBe(app.home);
  expect(env.HOME).not.toBe(homedir());
  expect(env.XDG_CONFIG_HOME?.startsWith(env.HOME ?? "/nonexistent")).toBe(true);
  expect(env.GIT_CONFIG_NOSYSTEM).toBe("1");
  expect(env.PATH).toBe(process.env.PATH);

  await app.open();
  await expect(page.getByRole("heading", { name: "env app" })).toBeVisible();
});
