import { test } from "../../../test-support/built-harness.ts";

// Opens a page the app never answers: the run is still going when the test interrupts the prover.
test("a page that never finishes loading", async ({ app }) => {
  await app.open("/app/hang");
});
