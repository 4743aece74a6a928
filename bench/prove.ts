import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { createDemoSandbox, defaultBugId, findBug } from "../prove/demo/index.ts";
import { median, type Figure } from "./figure.ts";

/** This repository: the zoo, its scenarios and their config. */
const root = resolve(import.meta.dirname, "..");

/** The wall time of a command run from this repository, in ms; it must exit with `expected`. */
async function timed(command: string, args: ReadonlyArray<string>, expected: number): Promise<number> {
  const start = performance.now();
  const run = await execa(command, args, { cwd: root, reject: false, stdin: "ignore", env: { FORCE_COLOR: "0" } });
  const elapsed = performance.now() - start;
  if (run.exitCode !== expected)
    throw new Error(`bench: \`${command} ${args.join(" ")}\` exited ${String(run.exitCode)}, not ${expected}:\n${run.stderr.slice(-2000)}`);
  return elapsed;
}

/** Measurements taken in turns (direct, proof, direct, proof, …), so each sees the same machine; the median of each. */
async function inTurns<const Names extends string>(
  runs: number,
  measures: Readonly<Record<Names, () => Promise<number>>>,
): Promise<Record<Names, number>> {
  const names = Object.keys(measures) as Names[];
  const taken = new Map<Names, number[]>(names.map((name) => [name, []]));
  for (let index = 0; index < runs; index++) for (const name of names) taken.get(name)?.push(await measures[name]());
  return Object.fromEntries(names.map((name) => [name, median(taken.get(name) ?? [])])) as Record<Names, number>;
}

const playwright = (scenario: string, output: string) =>
  timed("node", ["node_modules/@playwright/test/cli.js", "test", scenario, "--reporter=line", "--output", output], 0);

/** Two direct runs started together, as a proof starts its two sides: the wall time until both end. */
async function twoAtOnce(scenario: string, out: string): Promise<number> {
  const start = performance.now();
  await Promise.all([playwright(scenario, join(out, "one")), playwright(scenario, join(out, "two"))]);
  return performance.now() - start;
}

/**
 * prove ÷ direct: a passing scenario proved at HEAD against itself (warm store) against one
 * `playwright test` of it; then the demo's failing-base case: the default zoo bug's proof in its
 * sandbox against one direct run of its scenario (which passes here, where the fix is in).
 */
export async function proveFigures(runs = 3): Promise<Figure[]> {
  const out = await mkdtemp(join(tmpdir(), "bench-prove-"));
  try {
    const scenario = "scenarios/agent-chat/replay-turn-streams.e2e.ts";
    const passing = await inTurns(runs, {
      direct: () => playwright(scenario, join(out, "direct")),
      twoAtOnce: () => twoAtOnce(scenario, out),
      proof: () =>
        timed("node", ["bin/prove-scenario.mjs", "--base", "HEAD", "--head", "HEAD", scenario, "--out", join(out, "passing")], 1),
    });
    const bug = await findBug(root, defaultBugId);
    const sandbox = await createDemoSandbox({ bugId: bug.id, repoRoot: root });
    try {
      const failing = await inTurns(runs, {
        direct: () => playwright(bug.scenario, join(out, "direct")),
        proof: () =>
          timed(
            "node",
            [
              "bin/prove-scenario.mjs",
              "--repo",
              sandbox.dir,
              "--base",
              sandbox.base,
              "--head",
              sandbox.head,
              "--config",
              "playwright.config.ts",
              bug.scenario,
              "--out",
              join(out, "failing"),
            ],
            0,
          ),
      });
      return [
        { figure: "prove-to-direct-ratio", value: passing.proof / passing.direct, unit: "ratio", goal: 1.3 },
        { figure: "prove-ms", value: passing.proof, unit: "ms", goal: null },
        { figure: "direct-ms", value: passing.direct, unit: "ms", goal: null },
        // The floor of a proof whose two sides run at once: what two direct runs at once take on this machine.
        { figure: "two-directs-at-once-to-direct-ratio", value: passing.twoAtOnce / passing.direct, unit: "ratio", goal: null },
        // The proof's own cost over running the scenario twice at once: listing, worktrees, install, report.
        { figure: "prove-to-two-directs-at-once-ratio", value: passing.proof / passing.twoAtOnce, unit: "ratio", goal: null },
        { figure: "demo-prove-to-direct-ratio", value: failing.proof / failing.direct, unit: "ratio", goal: null },
        { figure: "demo-prove-ms", value: failing.proof, unit: "ms", goal: null },
      ];
    } finally {
      await sandbox.dispose();
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
