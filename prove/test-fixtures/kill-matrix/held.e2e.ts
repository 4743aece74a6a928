import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "../../../test-support/built-harness.ts";

// Takes one screenshot, then, for the run phase, opens a page the app never answers. For the
// report phase, base's run adds a screenshot whose file is a FIFO in the markers folder, so the
// report blocks reading it until the test writes it.
test("a page held by the kill-matrix test", async ({ app }, testInfo) => {
  await app.open("/");
  await app.screenshot("opened");
  const markers = process.env.KILL_MATRIX_DIR ?? "";
  if (process.env.KILL_MATRIX_PHASE === "report" && (process.env.SCENARIO_APP_ROOT ?? "").endsWith("/base")) {
    const fifo = join(markers, "report.png");
    execFileSync("mkfifo", [fifo]);
    testInfo.attachments.push({ name: "screenshot:held", path: fifo, contentType: "image/png" });
  }
  if (process.env.KILL_MATRIX_PHASE === "run") await app.open("/hang");
});
