import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitLive } from "../git/git-live.ts";
import { validateOutFolder } from "./out-folder.ts";

let work: string;
let repo: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "out-folder-"));
  repo = join(work, "app");
  await mkdir(repo);
  await execa("git", ["init", "-q"], { cwd: repo });
  await writeFile(join(repo, ".gitignore"), "/reports/\n");
  await writeFile(join(work, "a-file"), "not a folder\n");
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** "ok", or the message --out is refused with. */
async function check(out: string, underTest: { readonly repo: string | undefined } = { repo }): Promise<string> {
  const exit = await Effect.runPromiseExit(validateOutFolder(out, out, underTest.repo).pipe(Effect.provide(GitLive)));
  if (Exit.isSuccess(exit)) return "ok";
  const error = Exit.findErrorOption(exit);
  return error._tag === "Some" ? error.value.message : "no error";
}

describe("the report folder named by --out", () => {
  it("may be outside the repository under test, not made yet, or inside it where git ignores it", async () => {
    expect(await Promise.all([check(join(work, "reports/one/two")), check(join(repo, "reports/proof"))])).toEqual(["ok", "ok"]);
  });

  it("is refused inside the repository under test where git would show the report, naming a folder outside it", async () => {
    const message = `is inside the repository under test, ${repo}, and git does not ignore it, so the report would show up in its \`git status\`. Pass --out a folder outside the repository, e.g. --out ${repo}-reports, or one its .gitignore ignores.`;
    expect(await check(join(repo, "proof"))).toBe(`--out ${join(repo, "proof")} ${message}`);
    expect(await check(repo)).toBe(`--out ${repo} ${message}`);
    // Before the repository is known (a wrong --repo, said next), only whether it can be written is checked.
    expect(await check(join(repo, "proof"), { repo: undefined })).toBe("ok");
  });

  it("is refused below a file, which stops root too, before anything runs", async () => {
    const out = join(work, "a-file", "report");
    expect(await check(out)).toBe(
      `Could not write the report to ${out}: ${join(work, "a-file")} is a file, not a folder. Pass --out <dir> with a writable folder.`,
    );
  });
});
