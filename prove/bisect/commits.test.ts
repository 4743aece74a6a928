import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { candidateCommits, commitDetails, type End } from "./commits.ts";

let root = "";
let repo = "";
const sha: Record<string, string> = {};

/** git with a fixed identity and no user or system config, as on a fresh CI runner. */
const git = async (...args: string[]) =>
  (
    await execa("git", args, {
      cwd: repo,
      env: {
        GIT_AUTHOR_NAME: "dev",
        GIT_AUTHOR_EMAIL: "dev@example.com",
        GIT_COMMITTER_NAME: "dev",
        GIT_COMMITTER_EMAIL: "dev@example.com",
        GIT_AUTHOR_DATE: "2026-11-30T12:00:00+01:00",
        GIT_CONFIG_GLOBAL: join(root, "gitconfig"),
        GIT_CONFIG_NOSYSTEM: "1",
      },
    })
  ).stdout;

const commit = async (name: string) => {
  await git("commit", "-q", "--allow-empty", "-m", name);
  sha[name] = await git("rev-parse", "HEAD");
};

/** main: A B M C, where M merges side: S1 S2, branched from B. */
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "prove-bisect-commits-"));
  repo = join(root, "repo");
  await writeFile(join(root, "gitconfig"), "");
  await execa("git", ["init", "-q", "-b", "main", repo]);
  await commit("A");
  await commit("B");
  await git("checkout", "-q", "-b", "side");
  await commit("S1");
  await commit("S2");
  await git("checkout", "-q", "main");
  await git("merge", "-q", "--no-ff", "-m", "M", "side");
  sha.M = await git("rev-parse", "HEAD");
  await commit("C");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const end = (name: string): End => ({ ref: name === "C" ? "main" : name, sha: sha[name] ?? "" });
const candidates = (old: string, newer: string) => Effect.runPromise(candidateCommits({ repo, old: end(old), new: end(newer) }));
const failure = (old: string, newer: string) => Effect.runPromise(Effect.flip(candidateCommits({ repo, old: end(old), new: end(newer) })));

describe("the commits a bisection probes", () => {
  it("are new's first-parent line after old, oldest first, a merge standing for its branch", async () => {
    expect(await candidates("A", "C")).toEqual([sha.B, sha.M, sha.C]);
    expect(await candidates("M", "C")).toEqual([sha.C]);
  });

  it("are refused when old is not an ancestor of new, naming both refs and what to pass", async () => {
    const error = await failure("C", "B");
    expect(error._tag).toBe("OldNotAncestor");
    expect(error.message).toBe(
      `--old main (${sha.C?.slice(0, 12)}) is not an ancestor of --new B (${sha.B?.slice(0, 12)}), so no line of commits leads from one to the other. ` +
        `Pass as --old a commit in --new's history: swap them if --old is the newer one, or take their common ancestor, \`git -C ${repo} merge-base main B\`.`,
    );
  });

  it("are refused when old and new are the same commit", async () => {
    const error = await failure("C", "C");
    expect(error._tag).toBe("NoCommitsBetween");
    expect(error.message).toBe(
      `--old main (${sha.C?.slice(0, 12)}) and --new main (${sha.C?.slice(0, 12)}) are the same commit, so there is nothing to search. ` +
        "Pass as --new a later commit whose outcome differs from --old's.",
    );
  });

  it("are refused when old reached new only through a merged branch, off new's first-parent line", async () => {
    const error = await failure("S1", "C");
    expect(error._tag).toBe("NoCommitsBetween");
    expect(error.message).toContain(`Pass as --old a commit of \`git -C ${repo} log --first-parent --oneline main\``);
  });

  it("are described by subject, author and date, in the order asked", async () => {
    const shas = [sha.C ?? "", sha.A ?? ""];
    expect(await Effect.runPromise(commitDetails(repo, shas))).toEqual([
      { sha: sha.C, subject: "C", author: "dev", date: "2026-11-30T12:00:00+01:00" },
      { sha: sha.A, subject: "A", author: "dev", date: "2026-11-30T12:00:00+01:00" },
    ]);
  });

  it("fail with git's message when a commit is missing", async () => {
    const error = await Effect.runPromise(
      Effect.flip(candidateCommits({ repo, old: { ref: "gone", sha: "0".repeat(40) }, new: end("C") })),
    );
    expect(error._tag).toBe("BisectGitFailed");
    expect(error.message).toContain(`\`git merge-base --is-ancestor ${"0".repeat(40)} ${sha.C}\` failed in ${repo}`);
  });
});
