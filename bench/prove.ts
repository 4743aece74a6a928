import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { createDemoSandbox, defaultBugId, findBug } from "../prove/demo/index.ts";
import { builtProver } from "../prove/e2e/support/built-prover.ts";
import type { ProofReport } from "../prove/index.ts";
import { median, type Figure } from "./figure.ts";

/** This repository: the zoo, its scenarios and their config. */
const root = resolve(import.meta.dirname, "..");

/**
 * CPU time of this process's ended children and their descendants (user + system, in clock ticks of
 * /proc/self/stat): every process a measured command starts is a descendant that is waited for.
 */
async function childrenCpu(): Promise<number> {
  const stat = await readFile("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // cutime and cstime are the 16th and 17th fields; the list starts at the 3rd.
  return Number(fields[13]) + Number(fields[14]);
}

/** A measured command's wall time and CPU, in ms and clock ticks. */
interface Cost {
  readonly wall: number;
  readonly cpu: number;
}

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
): Promise<Record<Names, Cost>> {
  const names = Object.keys(measures) as Names[];
  const taken = new Map<Names, Cost[]>(names.map((name) => [name, []]));
  for (let index = 0; index < runs; index++) {
    for (const name of names) {
      const cpu = await childrenCpu();
      const wall = await measures[name]();
      taken.get(name)?.push({ wall, cpu: (await childrenCpu()) - cpu });
    }
  }
  const medianOf = (name: Names, of: keyof Cost) => median((taken.get(name) ?? []).map((cost) => cost[of]));
  return Object.fromEntries(names.map((name) => [name, { wall: medianOf(name, "wall"), cpu: medianOf(name, "cpu") }])) as Record<
    Names,
    Cost
  >;
}

/** The last passing proof's report.json timings, as figures: where a proof spends its time. */
async function phaseFigures(reportJson: string): Promise<Figure[]> {
  const { timings } = JSON.parse(await readFile(reportJson, "utf8")) as ProofReport;
  const ms = (figure: string, value: number | null | undefined): Figure[] =>
    value === null || value === undefined ? [] : [{ figure: `prove-phase-${figure}-ms`, value, unit: "ms", goal: null }];
  return [
    ...ms("listing", timings.listingMs),
    ...(["base", "head"] as const).flatMap((side) => {
      const steps = timings[side];
      const run = steps.runs[0];
      return [
        ...ms(`${side}-worktree`, steps.worktreeMs),
        ...ms(`${side}-install`, steps.installMs),
        ...ms(`${side}-build`, steps.buildMs),
        ...ms(`${side}-runner`, run?.runnerMs),
        ...ms(`${side}-boot`, run?.bootMs),
        ...ms(`${side}-test`, run?.testMs),
      ];
    }),
    ...ms("report", timings.reportMs),
  ];
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
    const proofArgs = ["--base", "HEAD", "--head", "HEAD", scenario, "--out", join(out, "passing")];
    // The same proof as an installed package runs it: its built JavaScript, where a clone's bin compiles the source through tsx.
    const installed = await builtProver(root);
    const passing = await inTurns(runs, {
      direct: () => playwright(scenario, join(out, "direct")),
      twoAtOnce: () => twoAtOnce(scenario, out),
      proof: () => timed("node", ["bin/prove-scenario.mjs", ...proofArgs], 1),
      installedProof: () => timed("node", [installed, ...proofArgs], 1),
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
        // The floor of a proof whose two sides run at once: two direct runs at once, on this machine.
        { figure: "prove-to-two-directs-at-once-ratio", value: passing.proof.wall / passing.twoAtOnce.wall, unit: "ratio", goal: 1.25 },
        { figure: "prove-to-two-directs-at-once-cpu-ratio", value: passing.proof.cpu / passing.twoAtOnce.cpu, unit: "ratio", goal: 1.25 },
        {
          figure: "installed-prove-to-two-directs-at-once-ratio",
          value: passing.installedProof.wall / passing.twoAtOnce.wall,
          unit: "ratio",
          goal: null,
        },
        {
          figure: "installed-prove-to-two-directs-at-once-cpu-ratio",
          value: passing.installedProof.cpu / passing.twoAtOnce.cpu,
          unit: "ratio",
          goal: null,
        },
        { figure: "prove-ms", value: passing.proof.wall, unit: "ms", goal: null },
        { figure: "installed-prove-ms", value: passing.installedProof.wall, unit: "ms", goal: null },
        { figure: "two-directs-at-once-ms", value: passing.twoAtOnce.wall, unit: "ms", goal: null },
        { figure: "direct-ms", value: passing.direct.wall, unit: "ms", goal: null },
        { figure: "prove-to-direct-ratio", value: passing.proof.wall / passing.direct.wall, unit: "ratio", goal: null },
        { figure: "two-directs-at-once-to-direct-ratio", value: passing.twoAtOnce.wall / passing.direct.wall, unit: "ratio", goal: null },
        ...(await phaseFigures(join(out, "passing", "report.json"))),
        { figure: "demo-prove-to-direct-ratio", value: failing.proof.wall / failing.direct.wall, unit: "ratio", goal: null },
        { figure: "demo-prove-ms", value: failing.proof.wall, unit: "ms", goal: null },
      ];
    } finally {
      await sandbox.dispose();
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
