import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, watch } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProofReport } from "../index.ts";
import { makeExpressRepo, type ExpressRepo } from "./support/express-repo.ts";
import { checkout, config, fixtures, processesMentioning, repositoryState, startProver } from "./support/prover.ts";

let work: string;
let repo: ExpressRepo;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-interrupt-"));
  repo = await makeExpressRepo(work);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Resolves with the pids of the first `count` app servers that reached the page that never loads. */
async function appsHanging(count: number, signal: AbortSignal): Promise<number[]> {
  const pids = new Set<number>();
  for await (const event of watch(repo.signals, { signal })) {
    const pid = Number(/^hang-(\d+)$/.exec(event.filename ?? "")?.[1]);
    if (Number.isInteger(pid)) pids.add(pid);
    if (pids.size === count) break;
  }
  return [...pids];
}

describe("interrupting a proof", () => {
  it("on Ctrl-C mid-run exits 2 interrupted, leaving no worktree, process or temporary folder, and the checkouts untouched", async () => {
    const repoBefore = await repositoryState(repo.dir);
    const checkoutBefore = await repositoryState(checkout);
    const stopWatching = new AbortController();
    const hanging = appsHanging(2, stopWatching.signal);
    const out = join(work, "report");
    const prover = startProver(["--base", "hang", "--head", "hang", `${fixtures}/hang.e2e.ts`, "--repo", repo.dir, "--config", config, "--out", out, "--json"]);

    const apps = await hanging;
    stopWatching.abort();
    const runDirs = (await readdir(tmpdir())).filter((name) => name.startsWith(`scenario-prover-${prover.pid}-`));
    expect(runDirs).toHaveLength(1);
    prover.kill("SIGINT");
    const result = await prover;

    expect(result.exitCode).toBe(2);
    const report = JSON.parse(result.stdout) as ProofReport;
    expect([report.verdict, report.exitCode, report.reasonCode]).toEqual(["could-not-run", 2, "interrupted"]);
    expect(JSON.parse(await readFile(join(out, "report.json"), "utf8"))).toEqual(report);
    expect(result.stderr).toContain("SIGINT: stopping, removing worktrees and temporary files…");

    expect(existsSync(join(tmpdir(), runDirs[0] ?? "?"))).toBe(false);
    expect(await processesMentioning(runDirs[0] ?? "?")).toEqual([]);
    expect(await processesMentioning(repo.dir)).toEqual([]);
    expect(apps.filter((pid) => existsSync(`/proc/${pid}/cwd`))).toEqual([]);
    expect(await repositoryState(repo.dir)).toEqual(repoBefore);
    // The invoking checkout: its branch, stashes, branches and worktrees (its HEAD moves with other people's commits).
    const { branch, stashes, branches, worktrees } = await repositoryState(checkout);
    expect({ branch, stashes, branches, worktrees: worktrees.replace(/^HEAD .*$/gm, "") }).toEqual({
      branch: checkoutBefore.branch,
      stashes: checkoutBefore.stashes,
      branches: checkoutBefore.branches,
      worktrees: checkoutBefore.worktrees.replace(/^HEAD .*$/gm, ""),
    });
  });

  it("killed with SIGKILL mid-run leaves leftovers that the next run removes: folder, worktrees and processes", async () => {
    const stopWatching = new AbortController();
    const hanging = appsHanging(2, stopWatching.signal);
    const killed = startProver(["--base", "hang", "--head", "hang", `${fixtures}/hang.e2e.ts`, "--repo", repo.dir, "--config", config, "--out", join(work, "killed")]);
    const apps = await hanging;
    stopWatching.abort();
    const [leftover] = (await readdir(tmpdir())).filter((name) => name.startsWith(`scenario-prover-${killed.pid}-`));
    killed.kill("SIGKILL");
    expect((await killed).signal).toBe("SIGKILL");
    expect(leftover).toBeDefined();
    expect((await repositoryState(repo.dir)).worktrees.split("\n\n")).toHaveLength(3);

    const next = await startProver(["run", "--at", "fix", `${fixtures}/sum.e2e.ts`, "--repo", repo.dir, "--config", config]);

    expect(next.exitCode).toBe(0);
    expect(existsSync(join(tmpdir(), leftover ?? "?"))).toBe(false);
    expect(await processesMentioning(leftover ?? "?")).toEqual([]);
    expect(apps.filter((pid) => existsSync(`/proc/${pid}/cwd`))).toEqual([]);
    expect((await repositoryState(repo.dir)).worktrees.split("\n\n")).toHaveLength(1);
  });
});
