import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa, type ResultPromise } from "execa";
import { createDemoSandbox, proofArguments } from "../prove/demo/index.ts";
import { median, type Figure } from "./figure.ts";

/** This repository: the zoo, its scenarios and their config. */
const root = resolve(import.meta.dirname, "..");

/** The zoo's performance bug: its fix is proved with `--faster`, by its `proof` file. */
const perfBug = "reply-markdown-reparsed-per-token";

/** What one performance proof answered: its exit code, its verdict and reason, its samples a side, its wall time. */
interface Answer {
  readonly exitCode: number;
  readonly verdict: string;
  readonly reason: string;
  readonly samples: number;
  readonly wallMs: number;
}

/** The machine as the bench finds it, or loaded by two `yes` processes (one a core here), as the loaded machine is. */
type Load = "quiet" | "loaded";

function loadMachine(load: Load): ReadonlyArray<ResultPromise> {
  if (load === "quiet") return [];
  return [0, 1].map(() => execa("yes", [], { stdout: "ignore", stdin: "ignore", reject: false }));
}

/**
 * Set by SIGINT or SIGTERM: the running proof is stopped as a user's Ctrl-C stops it (the prover
 * removes its own worktrees), and the bench then removes its sandbox and folders and ends.
 */
const stopped = new AbortController();

/** One proof through the prover's bin, its report.json read: the whole command as a user runs it. */
async function prove(args: ReadonlyArray<string>, out: string): Promise<Answer> {
  const start = performance.now();
  const run = await execa("node", ["bin/prove-scenario.mjs", ...args, "--out", out], {
    cwd: root,
    reject: false,
    stdin: "ignore",
    env: { FORCE_COLOR: "0" },
    cancelSignal: stopped.signal,
  });
  const wallMs = performance.now() - start;
  if (stopped.signal.aborted) throw new Error("bench faster: stopped by a signal; its sandbox and folders are removed");
  const report = JSON.parse(await readFile(join(out, "report.json"), "utf8").catch(() => "{}")) as {
    readonly verdict?: string;
    readonly reason?: string;
    readonly performance?: { readonly samples?: { readonly base?: ReadonlyArray<unknown>; readonly head?: ReadonlyArray<unknown> } };
  };
  if (report.verdict === undefined)
    throw new Error(`bench faster: the proof wrote no report.json (exit ${String(run.exitCode)}):\n${run.stderr.slice(-3000)}`);
  const samples = Math.min(report.performance?.samples?.base?.length ?? 0, report.performance?.samples?.head?.length ?? 0);
  return { exitCode: run.exitCode ?? -1, verdict: report.verdict, reason: report.reason ?? "", samples, wallMs };
}

/**
 * The evidence that a performance proof is right and never false: the zoo's performance fix
 * proved BENCH_FASTER_RUNS times (10), and its shipped commit as both base and head
 * BENCH_FASTER_SAME_RUNS times (20), on the machine quiet and loaded (BENCH_FASTER_LOADS,
 * "quiet,loaded"). Each proof is printed as it ends; the figures are the share of fix proofs proved
 * (goal 1) and the same-commit proofs that claimed a difference (goal 0).
 */
export async function fasterFigures(): Promise<Figure[]> {
  const runs = Number(process.env.BENCH_FASTER_RUNS ?? "10");
  const sameRuns = Number(process.env.BENCH_FASTER_SAME_RUNS ?? "20");
  const loads = (process.env.BENCH_FASTER_LOADS ?? "quiet,loaded")
    .split(",")
    .filter((load): load is Load => load === "quiet" || load === "loaded");
  // Kept (process.on, not once) until the folders are removed: execa's exit hook re-raises a signal no other listener holds.
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`bench faster: ${signal}: stopping the running proof, then removing the bench's sandbox and folders`);
    stopped.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // BENCH_FASTER_OUT keeps every proof's report folder there, to read the samples after.
  const kept = process.env.BENCH_FASTER_OUT;
  const out = kept === undefined ? await mkdtemp(join(tmpdir(), "bench-faster-")) : resolve(kept);
  const sandbox = await createDemoSandbox({ bugId: perfBug, repoRoot: root });
  const figures: Figure[] = [];
  try {
    const fix = proofArguments(sandbox);
    const same = fix.map((arg, index) => (fix[index - 1] === "--base" ? sandbox.head : arg));
    for (const load of loads) {
      const loaders = loadMachine(load);
      try {
        const cases = [
          { name: "fix", args: fix, count: runs },
          { name: "same commit", args: same, count: sameRuns },
        ] as const;
        for (const { name, args, count } of cases) {
          if (count === 0) continue;
          const answers: Answer[] = [];
          for (let index = 1; index <= count; index++) {
            const answer = await prove(args, join(out, `${load}-${name.replace(" ", "-")}-${index}`));
            answers.push(answer);
            console.error(
              `bench faster: ${load}, ${name} ${index}/${count}: exit ${answer.exitCode}, ${answer.verdict}, ${answer.samples} samples a side, ` +
                `${Math.round(answer.wallMs / 1000)} s: ${answer.reason.split("\n")[0] ?? ""}`,
            );
          }
          const proved = answers.filter((answer) => answer.exitCode === 0).length;
          figures.push(
            name === "fix"
              ? { figure: `faster-fix-proved-share-${load}`, value: proved / count, unit: "ratio", goal: 1 }
              : { figure: `faster-same-commit-proved-${load}`, value: proved, unit: "proofs", goal: 0 },
            {
              figure: `faster-${name.replace(" ", "-")}-samples-a-side-${load}`,
              value: median(answers.map((answer) => answer.samples)),
              unit: "samples",
              goal: null,
            },
            {
              figure: `faster-${name.replace(" ", "-")}-wall-${load}-ms`,
              value: median(answers.map((answer) => answer.wallMs)),
              unit: "ms",
              goal: null,
            },
          );
        }
      } finally {
        for (const loader of loaders) loader.kill();
        await Promise.all(loaders);
      }
    }
  } finally {
    await sandbox.dispose();
    if (kept === undefined) await rm(out, { recursive: true, force: true });
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  return figures;
}
