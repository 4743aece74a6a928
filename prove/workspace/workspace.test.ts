import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { Git } from "../git/git.ts";
import { GitLive } from "../git/git-live.ts";
import { resolveRefs } from "../engine/steps.ts";
import { progressLayer } from "../progress/progress-live.ts";
import { cleanLeftovers, runDirectory } from "./run-dir.ts";
import { processesMentioning } from "../e2e/support/processes.ts";
import { ownerToken, startTime } from "../../common/ownership.ts";
import { worktree } from "./worktree.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function scratchDir(name: string) {
  const dir = await mkdtemp(join(tmpdir(), `prove-${name}-`));
  scratch.push(dir);
  return dir;
}

/** A real repository with one commit, and a folder standing in for the system's temp dir. */
async function setup() {
  const repo = await scratchDir("repo");
  const temp = await scratchDir("temp");
  const git = (...args: string[]) => execa("git", args, { cwd: repo });
  await git("init", "-q");
  await writeFile(join(repo, "app.txt"), "v1\n");
  await git("add", ".");
  await git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first");
  const sha = (await git("rev-parse", "HEAD")).stdout;
  const worktrees = async () =>
    (await git("worktree", "list", "--porcelain")).stdout.split("\n").filter((line) => line.startsWith("worktree ")).length;
  return { repo, temp, sha, git, worktrees };
}

/** Opens a run folder and a worktree in one scope, then runs `inside` there. */
function withWorktree<A, E>(repo: string, temp: string, sha: string, inside: (path: string) => Effect.Effect<A, E>) {
  return Effect.scoped(
    Effect.gen(function* () {
      const dir = yield* runDirectory(repo, false, temp);
      const path = yield* worktree(repo, join(dir.path, "base"), sha, false);
      return yield* inside(path);
    }),
  ).pipe(Effect.provide(GitLive));
}

describe("worktrees and the run folder", () => {
  it.each([
    ["the proof succeeds", () => Effect.void],
    ["the proof fails", () => Effect.fail("boom")],
  ])("are removed and pruned when %s", async (_case, end) => {
    const { repo, temp, sha, worktrees } = await setup();
    let seen = false;
    await Effect.runPromiseExit(
      withWorktree(repo, temp, sha, (path) =>
        Effect.gen(function* () {
          seen = existsSync(join(path, "app.txt")) && (yield* Effect.promise(worktrees)) === 2;
          return yield* end();
        }),
      ),
    );
    expect(seen).toBe(true);
    expect(await worktrees()).toBe(1);
    expect(await readdir(temp)).toEqual([]);
  });

  it("are removed and pruned when the proof is interrupted", async () => {
    const { repo, temp, sha, worktrees } = await setup();
    const inside = Deferred.makeUnsafe<void>();
    const fiber = Effect.runFork(
      withWorktree(repo, temp, sha, () => Deferred.succeed(inside, undefined).pipe(Effect.andThen(Effect.never))),
    );
    await Effect.runPromise(Deferred.await(inside));
    const exit = await Effect.runPromise(Fiber.interrupt(fiber).pipe(Effect.andThen(Fiber.await(fiber))));
    expect(Exit.hasInterrupts(exit)).toBe(true);
    expect(await worktrees()).toBe(1);
    expect(await readdir(temp)).toEqual([]);
  });

  it("left by a killed run are removed by the next one, its pid reused or not, its half-made worktree too, its repository gone or not; a live run's and a kept one's are not", async () => {
    const { repo, temp, sha, git, worktrees } = await setup();
    const exited = execa("true");
    await exited;
    const dead = String(exited.pid);
    const live = ownerToken(process.ppid);
    // A run that died long ago, its pid since handed to a live process (this one's parent) that started later.
    const reused = `${String(process.ppid)}.${String(Number(startTime(process.ppid)) - 1)}`;
    const folder = async (owner: string, keep: boolean) => {
      const dir = join(temp, `scenario-prover-${owner}-x${String(keep)}`);
      await mkdir(dir);
      await writeFile(join(dir, "owner.json"), JSON.stringify({ pid: Number(owner.split(".")[0]), repo, keep }));
      await git("worktree", "add", "--detach", join(dir, "base"), sha);
      return dir;
    };
    const killed = await folder(dead, false);
    // Killed while git added a second worktree: its entry is left locked, as git leaves one it was still making.
    await git("worktree", "add", "--detach", join(killed, "head"), sha);
    await git("worktree", "lock", "--reason", "initializing", join(killed, "head"));
    const overtaken = await folder(reused, false);
    const running = await folder(live, false);
    const kept = await folder(dead, true);
    // A run of a repository deleted since (a clone removed, a test's temporary repository).
    const orphan = join(temp, `scenario-prover-${dead}-gone`);
    await mkdir(join(orphan, "base"), { recursive: true });
    await writeFile(join(orphan, "owner.json"), JSON.stringify({ pid: Number(dead), repo: join(temp, "deleted-repo"), keep: false }));

    const { removed, failed } = await Effect.runPromise(cleanLeftovers([temp]).pipe(Effect.provide(GitLive)));

    expect([...removed].sort()).toEqual([killed, overtaken, orphan].sort());
    expect(failed).toEqual([]);
    expect([existsSync(killed), existsSync(overtaken), existsSync(orphan), existsSync(running), existsSync(kept)]).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
    expect(await worktrees()).toBe(3);
  });

  it("left by a killed run whose processes still write into it, starting others, are removed whole: none of them is left, and nothing fails", async () => {
    const { temp } = await setup();
    const exited = execa("true");
    await exited;
    const dir = join(temp, `scenario-prover-${String(exited.pid)}-busy`);
    await mkdir(join(dir, "base.out"), { recursive: true });
    // As a Playwright runner a killed proof left behind: it keeps writing output and starting processes in the folder.
    const writer = execa(
      "sh",
      ["-c", "while :; do mkdir -p base.out/1/test-results; touch base.out/1/test-results/$(date +%N); sleep 30 & sleep 0.02; done"],
      {
        cwd: dir,
        detached: true,
        reject: false,
      },
    );
    while (!existsSync(join(dir, "base.out/1/test-results"))) await new Promise((resolve) => setImmediate(resolve));

    const { removed, failed } = await Effect.runPromise(cleanLeftovers([temp]).pipe(Effect.provide(GitLive)));

    expect([removed, failed]).toEqual([[dir], []]);
    expect(existsSync(dir)).toBe(false);
    expect((await writer).signal).toBe("SIGKILL");
    expect(await processesMentioning(dir)).toEqual([]);
  });

  it("of one repository can be added and removed by many proofs at once", async () => {
    const { repo, temp, sha, worktrees } = await setup();
    const path = (round: number, index: number) => join(temp, `r${round}`, `w${index}`);
    const indexes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const program = Effect.gen(function* () {
      const git = yield* Git;
      for (const round of [0, 1, 2]) {
        yield* Effect.all(
          indexes.map((index) => git.addWorktree(repo, path(round, index), sha)),
          { concurrency: "unbounded" },
        );
        yield* Effect.all(
          [
            ...indexes.map((index) => git.addWorktree(repo, path(round + 10, index), sha)),
            ...indexes.map((index) => git.removeWorktree(repo, path(round, index))),
          ],
          { concurrency: "unbounded" },
        );
      }
    });
    const exit = await Effect.runPromiseExit(program.pipe(Effect.provide(GitLive)));
    expect(exit).toMatchObject({ _tag: "Success" });
    expect(await worktrees()).toBe(1 + 3 * indexes.length);
  });
});

describe("a ref that is not in the repository", () => {
  it("is a BadRef that says to fetch more history when the repository is a shallow clone, and not otherwise", async () => {
    const { repo, git, sha } = await setup();
    await writeFile(join(repo, "app.txt"), "v2\n");
    await git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "second");
    const shallow = join(await scratchDir("shallow"), "clone");
    await execa("git", ["clone", "-q", "--depth", "1", `file://${repo}`, shallow]);
    const missing = (where: string, ref: string) =>
      Effect.runPromise(
        Effect.gen(function* () {
          const git = yield* Git;
          return yield* Effect.flip(git.resolveCommit(where, ref, "--base"));
        }).pipe(Effect.provide(GitLive)),
      );

    const inShallow = await missing(shallow, sha);
    expect(inShallow.message).toContain(`--base "${sha}" does not name a commit in ${shallow}.`);
    expect(inShallow.message).toContain(
      `fetch the history with \`git -C ${shallow} fetch --unshallow\` (in GitHub Actions, \`fetch-depth: 0\``,
    );
    const inFull = await missing(repo, "no-such-branch");
    expect(inFull.message).toContain('--base "no-such-branch" does not name a commit in');
    expect(inFull.message).not.toContain("shallow");
  });
});

describe("two refs that name one commit", () => {
  it("get a warning that the proof cannot prove, unless they are the same name", async () => {
    const { repo, git, sha } = await setup();
    await git("tag", "v1");
    const lines = async (base: string, head: string) => {
      const printed: string[] = [];
      await Effect.runPromise(
        resolveRefs({ base, head }, repo).pipe(Effect.provide(GitLive), Effect.provide(progressLayer((line) => printed.push(line)))),
      );
      return printed.filter((line) => line.startsWith("warning: "));
    };
    expect(await lines("v1", "HEAD")).toEqual([
      `warning: --base v1 and --head HEAD are the same commit, ${sha.slice(0, 7)}, so the scenario can only pass or fail on both and the proof cannot prove; check that the fix is committed and that both refs name what you meant.`,
    ]);
    expect(await lines("HEAD", "HEAD")).toEqual([]);
  });
});
