import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, rmdir, watch } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { execa } from "execa";
import { createDemoSandbox, defaultBugId, findBug } from "../prove/demo/index.ts";
import { builtProver } from "../test-support/built-package.ts";
import { alive } from "../common/ownership.ts";
import { installedFolders } from "../prove/install/reuse.ts";
import type { ProofReport } from "../prove/index.ts";
import { median, type Figure } from "./figure.ts";

/** This repository: the zoo, its scenarios and their config. */
const root = resolve(import.meta.dirname, "..");

/**
 * CPU time of this process's ended children and their descendants (user + system, in ms, from the
 * cutime and cstime of /proc/self/stat): only processes waited for count, so one whose parent ended
 * first (an app's server outliving its `pnpm start`) does not. The fallback when no cgroup can be made.
 */
async function childrenCpu(): Promise<number> {
  const stat = await readFile("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // cutime and cstime are the 16th and 17th fields; the list starts at the 3rd. Clock ticks: 100 a second.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** A shell command line that moves its shell into the cgroup named by its $0. */
const enterGroup = 'echo $$ > "$0/cgroup.procs"';

/** A cgroup v2 hierarchy this process can make groups in and move processes to (as root, here), or undefined. */
async function cgroupHierarchy(): Promise<string | undefined> {
  for (const mount of ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"]) {
    if (!existsSync(join(mount, "cgroup.procs")) || !existsSync(join(mount, "cpu.stat"))) continue;
    const probe = join(mount, `bench-probe-${process.pid}`);
    try {
      await mkdir(probe);
    } catch {
      continue;
    }
    const moved = await execa("sh", ["-c", enterGroup, probe], { reject: false, stdin: "ignore" });
    await rmdir(probe);
    if (moved.exitCode === 0) return mount;
  }
  return undefined;
}

/** Runs a command from this repository and gives its wall time in ms; it must exit with `expected`. */
type Timed = (command: string, args: ReadonlyArray<string>, expected: number) => Promise<number>;

/** A measured command's wall time and CPU, in ms. */
interface Cost {
  readonly wall: number;
  readonly cpu: number;
}

/**
 * Counts the CPU of every process a measurement starts: its commands run in a cgroup of its own,
 * which counts every descendant whatever its parent did; without one, the bench's children's times do.
 */
interface CpuMeter {
  readonly how: string;
  /** Runs `measure` with its commands in one group; its cost once every process it started has ended. */
  readonly count: (measure: (timed: Timed) => Promise<number>) => Promise<Cost>;
}

/** `timed` for commands run as `wrap` says (in a cgroup, or as they are). */
const timedBy =
  (wrap: (command: string, args: ReadonlyArray<string>) => readonly [string, ReadonlyArray<string>]): Timed =>
  async (command, args, expected) => {
    const [file, argv] = wrap(command, args);
    const start = performance.now();
    const run = await execa(file, argv, { cwd: root, reject: false, stdin: "ignore", env: { FORCE_COLOR: "0" } });
    const elapsed = performance.now() - start;
    if (run.exitCode !== expected)
      throw new Error(
        `bench: \`${command} ${args.join(" ")}\` exited ${String(run.exitCode)}, not ${expected}:\n${run.stderr.slice(-2000)}`,
      );
    return elapsed;
  };

/** Resolves when cgroup `group` has no process left; fails naming them after 60 s. */
async function emptied(group: string): Promise<void> {
  const events = join(group, "cgroup.events");
  const empty = async () => (await readFile(events, "utf8")).includes("populated 0");
  const signal = AbortSignal.timeout(60_000);
  try {
    const changes = watch(events, { signal });
    if (await empty()) return;
    for await (const _ of changes) if (await empty()) return;
  } catch (error) {
    if (!signal.aborted) throw error;
    const left = (await readFile(join(group, "cgroup.procs"), "utf8")).trim().split("\n").join(", ");
    throw new Error(`bench: processes ${left} were still running 60 s after the measured commands ended`, { cause: error });
  }
}

/** Removes the groups a bench killed before its own cleanup left in `hierarchy` (empty ones only: rmdir refuses the others); how many. */
async function removeAbandonedGroups(hierarchy: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(hierarchy)) {
    const owner = /^bench-(?:probe-)?(\d+)(?:-\d+)?$/.exec(name)?.[1];
    if (owner === undefined || alive(Number(owner))) continue;
    if (
      await rmdir(join(hierarchy, name)).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  return removed;
}

async function cpuMeter(): Promise<CpuMeter> {
  const hierarchy = await cgroupHierarchy();
  const abandoned = hierarchy === undefined ? 0 : await removeAbandonedGroups(hierarchy);
  if (abandoned > 0) console.error(`bench prove: removed ${abandoned} empty cgroups left in ${hierarchy} by bench runs that were killed`);
  if (hierarchy === undefined) {
    return {
      how: "the bench's children's times (no cgroup could be made; as root one is), which miss a process whose parent ended first",
      count: async (measure) => {
        const before = await childrenCpu();
        const wall = await measure(timedBy((command, args) => [command, args]));
        return { wall, cpu: (await childrenCpu()) - before };
      },
    };
  }
  let made = 0;
  return {
    how: `a cgroup per measurement, in ${hierarchy}`,
    count: async (measure) => {
      const group = join(hierarchy, `bench-${process.pid}-${made++}`);
      await mkdir(group);
      try {
        const wall = await measure(timedBy((command, args) => ["sh", ["-c", `${enterGroup} && exec "$@"`, group, command, ...args]]));
        // What outlives the commands (a server stopping after its parent) counts too.
        await emptied(group);
        const usage = /^usage_usec (\d+)$/m.exec(await readFile(join(group, "cpu.stat"), "utf8"))?.[1];
        return { wall, cpu: Number(usage) / 1000 };
      } finally {
        await rmdir(group).catch(() => undefined);
      }
    },
  };
}

/** Measurements taken in turns (direct, proof, direct, proof, …), so each sees the same machine; the median of each. */
async function inTurns<const Names extends string>(
  runs: number,
  meter: CpuMeter,
  measures: Readonly<Record<Names, (timed: Timed) => Promise<number>>>,
): Promise<Record<Names, Cost>> {
  const names = Object.keys(measures) as Names[];
  const taken = new Map<Names, Cost[]>(names.map((name) => [name, []]));
  for (let index = 0; index < runs; index++) {
    for (const name of names) taken.get(name)?.push(await meter.count(measures[name]));
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

/**
 * What every proof of a commit in a fresh worktree does besides running the scenario, done by hand
 * with the same commands the prover runs: both worktrees checked out at once, base's install, head's
 * hard-linked copy of it, and both removed. The rest of a proof's cost over its floor is the prover's own.
 */
async function checkouts(timed: Timed, out: string): Promise<number> {
  const start = performance.now();
  const dir = await mkdtemp(join(out, "checkouts-"));
  const [base, head] = [join(dir, "base"), join(dir, "head")];
  const add = (path: string) => timed("git", ["-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", path, "HEAD"], 0);
  try {
    await Promise.all([add(base), add(head)]);
    await timed("pnpm", ["--dir", base, "install", "--frozen-lockfile"], 0);
    for (const folder of await installedFolders(base)) await timed("cp", ["-al", folder, dirname(join(head, relative(base, folder)))], 0);
  } finally {
    // Removed as a proof removes them, measured, whether or not a step above failed.
    await timed("rm", ["-rf", base, head], 0);
    await timed("git", ["worktree", "prune"], 0);
  }
  return performance.now() - start;
}

const playwright = (timed: Timed, scenario: string, output: string) =>
  timed("node", ["node_modules/@playwright/test/cli.js", "test", scenario, "--reporter=line", "--output", output], 0);

/** Two direct runs started together, as a proof starts its two sides: the wall time until both end. */
async function twoAtOnce(timed: Timed, scenario: string, out: string): Promise<number> {
  const start = performance.now();
  await Promise.all([playwright(timed, scenario, join(out, "one")), playwright(timed, scenario, join(out, "two"))]);
  return performance.now() - start;
}

/**
 * prove ÷ direct: a passing scenario proved at HEAD against itself (warm store) against one
 * `playwright test` of it; then the demo's failing-base case: the default zoo bug's proof in its
 * sandbox against one direct run of its scenario (which passes here, where the fix is in).
 */
export async function proveFigures(runs = 5): Promise<Figure[]> {
  const out = await mkdtemp(join(tmpdir(), "bench-prove-"));
  try {
    const scenario = "scenarios/agent-chat/replay-turn-streams.e2e.ts";
    const proofArgs = ["--base", "HEAD", "--head", "HEAD", scenario, "--out", join(out, "passing")];
    // The same proof as an installed package runs it: its bundle (dist/bin/), where a clone's bin compiles the source through tsx.
    const installed = await builtProver();
    const meter = await cpuMeter();
    console.error(`bench prove: CPU counted by ${meter.how}`);
    const passing = await inTurns(runs, meter, {
      direct: (timed) => playwright(timed, scenario, join(out, "direct")),
      twoAtOnce: (timed) => twoAtOnce(timed, scenario, out),
      proof: (timed) => timed("node", ["bin/prove-scenario.mjs", ...proofArgs], 1),
      installedProof: (timed) => timed("node", [installed, ...proofArgs], 1),
      checkouts: (timed) => checkouts(timed, out),
    });
    // What the proof spends beyond its floor and the checkouts every proof needs: the prover's own work. On two cores the
    // checkouts alone weigh more than a quarter of this scenario's floor, so the goal is against the floor and them together,
    // for the proof a user runs (the installed one: a clone's also compiles the prover's TypeScript through tsx).
    const own = (proof: Cost) => proof.cpu - passing.twoAtOnce.cpu - passing.checkouts.cpu;
    const bug = await findBug(root, defaultBugId);
    const sandbox = await createDemoSandbox({ bugId: bug.id, repoRoot: root });
    try {
      const failing = await inTurns(runs, meter, {
        direct: (timed) => playwright(timed, bug.scenario, join(out, "direct")),
        proof: (timed) =>
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
        // What the proof adds to its floor, which does not grow with the scenario: a longer scenario has a lower ratio.
        { figure: "prove-cpu-ms", value: passing.proof.cpu, unit: "ms", goal: null },
        { figure: "two-directs-at-once-cpu-ms", value: passing.twoAtOnce.cpu, unit: "ms", goal: null },
        { figure: "prove-over-floor-ms", value: passing.proof.wall - passing.twoAtOnce.wall, unit: "ms", goal: null },
        { figure: "prove-over-floor-cpu-ms", value: passing.proof.cpu - passing.twoAtOnce.cpu, unit: "ms", goal: null },
        { figure: "checkouts-ms", value: passing.checkouts.wall, unit: "ms", goal: null },
        { figure: "checkouts-cpu-ms", value: passing.checkouts.cpu, unit: "ms", goal: null },
        {
          figure: "prove-to-two-directs-at-once-and-checkouts-cpu-ratio",
          value: passing.proof.cpu / (passing.twoAtOnce.cpu + passing.checkouts.cpu),
          unit: "ratio",
          goal: null,
        },
        {
          figure: "installed-prove-to-two-directs-at-once-and-checkouts-cpu-ratio",
          value: passing.installedProof.cpu / (passing.twoAtOnce.cpu + passing.checkouts.cpu),
          unit: "ratio",
          goal: 1.25,
        },
        { figure: "prove-own-cpu-ms", value: own(passing.proof), unit: "ms", goal: null },
        { figure: "installed-prove-own-cpu-ms", value: own(passing.installedProof), unit: "ms", goal: null },
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
