import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "../../index.ts";

/** How long each quiet start waits before listening, spread over a few seconds so no wait schedule lines up with them all. */
const startDelaysMs = [0, 50, 150, 300, 500, 800, 1200];

for (const delay of startDelaysMs) {
  test.describe(`an app that starts listening after ${delay} ms`, () => {
    test.use({ appEnv: { READINESS_APP_DELAY_MS: String(delay) } });

    // The benchmark (bench/readiness.ts) compares these annotations with the harness's scenario-harness:ready-at.
    test("A quiet app is seen ready once it listens", async ({ app, page }, testInfo) => {
      const listeningAt = await readFile(join(app.home, "listening-at"), "utf8");
      const answeredAt = await (await fetch(new URL("/answered-at", app.url))).text();
      testInfo.annotations.push({ type: "readiness-app:listening-at", description: listeningAt });
      testInfo.annotations.push({ type: "readiness-app:answered-at", description: answeredAt });

      await app.open();
      await expect(page.getByRole("heading", { name: "readiness app" })).toBeVisible();
    });
  });
}

test.describe("an app whose ready path fails while it warms up", () => {
  test.use({ appEnv: { READINESS_APP_WARMUP: "2" } });

  test("The harness waits for the ready path to answer, and asks it once more only", async ({ app }) => {
    const stats = await (await fetch(new URL("/stats", app.url))).json();
    expect(stats).toEqual({ warming: 2, healthy: 1 });
  });
});
