import { simpleGit } from "simple-git";

/** What init's prove command names as --base when it cannot tell the branch a fix is compared against. */
export const unknownBase = "<base-ref>";

/**
 * The ref a fix in the repository at `top` is proved against: the remote's default branch
 * (origin/HEAD's target, e.g. origin/main), else `main` or `master`, whichever has a commit; else
 * unknownBase. Not the branch HEAD is on, which is where the fix is.
 */
export async function baseRef(top: string | undefined): Promise<string> {
  if (top === undefined) return unknownBase;
  const git = simpleGit(top);
  const remote = await git.raw(["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]).catch(() => "");
  if (remote.trim() !== "") return remote.trim();
  for (const branch of ["main", "master"]) {
    const found = await git.raw(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`]).catch(() => "");
    if (found.trim() !== "") return branch;
  }
  return unknownBase;
}
