import { defineConfig } from "vitest/config";

/** Runs the harness's test apps with Playwright itself, starting no prover: it can run beside express. */
const harness = "harness/harness.test.ts";

/** The test files that prove with real Playwright runs. */
const proofs = ["prove/e2e/**/*.test.ts", harness];

/**
 * The two that kill provers with SIGKILL and check that a later run of their own removes and names
 * what was left. Every prover removes the leftovers of killed ones it finds in TMPDIR and /tmp, so
 * neither runs beside a file that starts provers, nor beside the other: the kill matrix beside the
 * unit files (which start none, and take the core its held proofs leave idle), then express beside
 * the harness's file (which starts none either), then the other end-to-end files.
 */
const express = "prove/e2e/express.test.ts";
const killMatrix = "prove/e2e/kill-matrix.test.ts";

const npmCache = "prove/e2e/support/global-setup.ts";
/** The package's build the proofs and the replay agent's process tests start (test-support/built-package.ts). */
const build = "test-support/global-build.ts";

export default defineConfig({
  test: {
    exclude: ["**/node_modules/**", "reports/**", "test-results/**", "dist/**", ".e2e-prover*/**"],
    // An end-to-end proof of several zoo scenarios runs six Playwright runs on two cores, and the zoo's performance
    // proof ten or more one after another (3 minutes on a quiet machine): minutes, not seconds.
    testTimeout: 420_000,
    hookTimeout: 60_000,
    // Two test files at a time: an end-to-end file waits on browsers, apps and installs for much of its time, and each
    // keeps what it checks for leftovers to its own folders, pids and commits. Groups run one after another.
    maxWorkers: 2,
    projects: [
      // The unit files share their workers' modules instead of importing Effect, the replay agent and the prover again
      // for each file: a third of their CPU. None leaves the environment, a global or a spy changed (stubs are undone).
      { extends: true, test: { name: "unit", include: ["**/*.test.ts"], exclude: proofs, isolate: false } },
      { extends: true, test: { name: "e2e-kill-matrix", include: [killMatrix], globalSetup: [build] } },
      { extends: true, test: { name: "e2e-express", include: [express], globalSetup: [build, npmCache], sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: "e2e-harness", include: [harness], sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: proofs,
          exclude: [express, killMatrix, harness],
          globalSetup: [build, npmCache],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
