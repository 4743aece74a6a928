import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineScenarioConfig } from "../../../test-support/built-harness.ts";
// @ts-expect-error: a plain JavaScript helper of the fixture, without types.
import { hold } from "./hold.mjs";

/**
 * The kill-matrix test's app: a dependency-free server, with the phase under test
 * (KILL_MATRIX_PHASE) held by the install or build command, the app, or this config while the
 * prover lists the scenario (see hold.mjs). Markers and releases are in KILL_MATRIX_DIR.
 */
const phase = process.env.KILL_MATRIX_PHASE ?? "";
const markers = process.env.KILL_MATRIX_DIR ?? tmpdir();
const holdModule = join(import.meta.dirname, "hold.mjs");
const holder = `node ${holdModule}`;

if (phase === "scenario" && process.argv.includes("--list")) await hold("scenario", markers);

export default defineScenarioConfig({
  testDir: ".",
  expect: { timeout: 3_000 },
  app: {
    root: ".",
    install: phase === "install" ? `${holder} install ${markers}` : false,
    ...(phase === "build" ? { build: `${holder} build ${markers}` } : {}),
    // A database beside the app, started before it: whatever stops the proof stops it too, and leaves no data folder.
    services: { db: { kind: "postgres" } },
    start: `node server.mjs ${phase === "boot" ? "boot" : "-"} ${markers} ${holdModule}`,
    ready: { path: "/" },
  },
});
