import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { berryLinkerSource } from "./berry-linker.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A folder `repo/app` and a home beside it, with the given files (relative to the scratch folder). */
async function folders(files: Readonly<Record<string, string>>) {
  const root = await mkdtemp(join(tmpdir(), "prove-berry-linker-"));
  scratch.push(root);
  await Promise.all([mkdir(join(root, "repo", "app"), { recursive: true }), mkdir(join(root, "home"))]);
  for (const [file, text] of Object.entries(files)) await writeFile(join(root, file), text);
  return { root, app: join(root, "repo", "app"), home: join(root, "home") };
}

describe("where yarn berry takes its linker from", () => {
  it.each([
    ["nothing sets it (berry would use Plug'n'Play)", {}, {}, undefined],
    ["an rc file of a folder above the install's", { "repo/.yarnrc.yml": 'yarnPath: x.cjs\n"nodeLinker": pnp\n' }, {}, "repo/.yarnrc.yml"],
    ["the home folder's rc file", { "home/.yarnrc.yml": "nodeLinker: pnpm\n" }, {}, "home/.yarnrc.yml"],
    [
      "the rc file YARN_RC_FILENAME names",
      { "repo/app/.ci-yarnrc.yml": "nodeLinker: pnp\n" },
      { yarn_rc_filename: ".ci-yarnrc.yml" },
      "repo/app/.ci-yarnrc.yml",
    ],
    [
      "YARN_NODE_LINKER, which wins over the rc files",
      { "repo/.yarnrc.yml": "nodeLinker: pnp\n" },
      { YARN_NODE_LINKER: "pnp" },
      "YARN_NODE_LINKER in the environment",
    ],
  ])("%s", async (_case, files, env, source) => {
    const { root, app, home } = await folders({ ...files, "repo/app/.yarnrc.yml": "enableTelemetry: false\n# nodeLinker: pnp\n" });
    const found = berryLinkerSource(app, env, home);
    expect(found?.startsWith(root) === true ? found.slice(root.length + 1) : found).toBe(source);
  });
});
