import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as Effect from "effect/Effect";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Git } from "./git.ts";
import { GitLive } from "./git-live.ts";

let repo: string;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), "prove-git-live-"));
  await execa("git", ["init", "-q", "-b", "main"], { cwd: repo });
});

afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

/** Writes `files` into the repository and commits them; the new commit's sha. */
async function commit(files: Readonly<Record<string, string>>): Promise<string> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(repo, file)), { recursive: true });
    await writeFile(join(repo, file), text);
  }
  await execa("git", ["add", "-A"], { cwd: repo });
  await execa("git", ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-qm", "change"], { cwd: repo });
  return (await execa("git", ["rev-parse", "HEAD"], { cwd: repo })).stdout;
}

const same = (a: string, b: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const git = yield* Git;
      return yield* git.sameDependencies(repo, a, b);
    }).pipe(Effect.provide(GitLive)),
  );

describe("two commits' dependencies", () => {
  it("differ when only a folder or tarball that a package.json names as a file: dependency changed, which an install copies into node_modules", async () => {
    const manifest = JSON.stringify({ dependencies: { prices: "file:./packages/prices", vendored: "file:vendor/tool-1.0.0.tgz" } });
    const first = await commit({
      "app/package.json": manifest,
      "app/packages/prices/index.js": "exports.add = (a, b) => a + b;\n",
      "app/server.js": "// v1\n",
      "app/vendor/tool-1.0.0.tgz": "v1",
    });
    const serverOnly = await commit({ "app/server.js": "// v2\n" });
    const tarballOnly = await commit({ "app/vendor/tool-1.0.0.tgz": "v2" });
    const inPrices = await commit({ "app/packages/prices/index.js": "exports.add = (a, b) => Number(a) + Number(b);\n" });
    const manifests = await commit({ "app/package.json": `${manifest}\n` });

    expect([
      await same(first, serverOnly),
      await same(serverOnly, tarballOnly),
      await same(tarballOnly, inPrices),
      await same(inPrices, manifests),
    ]).toEqual([true, false, false, false]);
  });
});
