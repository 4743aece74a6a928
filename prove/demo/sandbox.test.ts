import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { simpleGit } from "simple-git";
import { describe, expect, it, onTestFinished } from "vitest";
import { createDemoSandbox, defaultBugId, listBugs } from "./index.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bugs = await listBugs(repoRoot);

describe("the demo sandbox", () => {
  it("is built for every bug of the zoo, the default one among them", () => {
    expect(bugs.length).toBeGreaterThanOrEqual(4);
    expect(bugs.map((bug) => bug.id)).toContain(defaultBugId);
  });

  it.each(bugs)("$id: base is the app with the fix reversed, head the app as shipped, and base installs as head does", async (bug) => {
    const sandbox = await createDemoSandbox({ bugId: bug.id, repoRoot });
    const scratch = await mkdtemp(join(tmpdir(), "demo-sandbox-test-"));
    onTestFinished(async () => {
      await sandbox.dispose();
      await rm(scratch, { recursive: true, force: true });
      expect(existsSync(sandbox.dir)).toBe(false);
    });
    const git = simpleGit(sandbox.dir);
    const [base, head] = [sandbox.base, sandbox.head];
    expect([base, head]).toEqual([`bug/${bug.id}`, `fix/${bug.id}`]);

    expect((await git.raw(["log", "--format=%s", head])).trim().split("\n")).toEqual([`Fix: ${bug.title}`, `agent-chat: ${bug.title}`]);
    expect((await git.raw(["rev-parse", `${head}~1`])).trim()).toBe((await git.raw(["rev-parse", base])).trim());
    expect((await git.raw(["diff", "--name-only", base, head])).trim().split("\n").sort()).toEqual(bug.files);
    const tracked = (await git.raw(["ls-tree", "-r", "--name-only", head])).trim().split("\n");
    expect(tracked.filter((file) => file.includes("node_modules") || file.startsWith("examples/agent-chat/bugs/"))).toEqual([]);
    for (const file of bug.files) {
      expect(await git.show([`${head}:${file}`]), file).toBe(await readFile(join(repoRoot, file), "utf8"));
    }

    // Base installs from the same manifests and lockfile as head, the checkout this suite installed:
    // a fix that touched one of them would need its own install here.
    const manifests = /(^|\/)(package\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.npmrc)$/;
    expect(bug.files.filter((file) => manifests.test(file))).toEqual([]);
    const worktree = join(scratch, "base");
    await git.raw(["worktree", "add", "--detach", worktree, base]);

    const worktreeGit = simpleGit(worktree);
    // --index: a fix that adds a file (a parser and its test) adds it to what `git diff head` compares.
    await worktreeGit.raw(["apply", "--index", bug.patch]);
    expect(await worktreeGit.raw(["status", "--porcelain"])).not.toBe("");
    expect(await worktreeGit.raw(["diff", head])).toBe("");
  });
});
