import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
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
  // No package manager setting of the runner's reaches the app (the runner's npm_config_* and PNPM_* are planted)...
  expect(Object.keys(process.env).filter((name) => /^(npm_config_|PNPM_)/i.test(name))).toContain("npm_config_planted_setting");
  expect(Object.keys(env).filter((name) => /^(npm_config_|pnpm_config_|PNPM_)/i.test(name))).toEqual([]);
  // ...yet npm (and npx) and pnpm in the app use the runner's cache and store, so nothing is downloaded twice.
  const runner = { cache: (await execa("npm", ["config", "get", "cache"])).stdout, store: (await execa("pnpm", ["store", "path"])).stdout };
  expect(await readFile(join(app.home, "npm-cache.txt"), "utf8")).toBe(`${runner.cache}\n`);
  expect(await readFile(join(app.home, "pnpm-store.txt"), "utf8")).toBe(`${runner.store}\n`);

  await app.open();
  await expect(page.getByRole("heading", { name: "env app" })).toBeVisible();
});
