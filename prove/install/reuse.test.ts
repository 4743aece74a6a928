import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { copyInstalled } from "./reuse.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** One commit's checkout: a pnpm workspace whose app depends on a local package with a command. */
async function checkout(root: string): Promise<void> {
  await mkdir(join(root, "greeter"), { recursive: true });
  await mkdir(join(root, "app"), { recursive: true });
  await writeFile(join(root, "pnpm-workspace.yaml"), "packages:\n  - app\n  - greeter\n");
  await writeFile(join(root, "package.json"), JSON.stringify({ name: "root", private: true }));
  await writeFile(join(root, "greeter", "package.json"), JSON.stringify({ name: "greeter", version: "1.0.0", bin: { greet: "greet.js" } }));
  await writeFile(join(root, "greeter", "greet.js"), '#!/usr/bin/env node\nconsole.log("hello from " + process.cwd());\n', { mode: 0o755 });
  await writeFile(
    join(root, "app", "package.json"),
    JSON.stringify({ name: "app", private: true, scripts: { hello: "greet" }, dependencies: { greeter: "workspace:*" } }),
  );
}

describe("reusing base's install in head", () => {
  it("hard-links every node_modules folder and points the copies' paths at head, leaving base's files as they were", async () => {
    const dir = await mkdtemp(join(tmpdir(), "prove-reuse-"));
    scratch.push(dir);
    const [base, head] = [join(dir, "base"), join(dir, "head")];
    await checkout(base);
    await execa("pnpm", ["install", "--offline"], { cwd: base, stdin: "ignore" });
    // Head's worktree is checked out after base installed, as in a proof: its manifests are newer than base's install.
    await checkout(head);
    const shim = (root: string) => readFile(join(root, "app", "node_modules", ".bin", "greet"), "utf8");
    const baseShim = await shim(base);
    expect(baseShim).toContain(base);

    expect(await Effect.runPromise(copyInstalled(base, head))).toBe(2);

    expect(await shim(base)).toBe(baseShim);
    expect(await shim(head)).toBe(baseShim.replaceAll(base, head));
    const state = await readFile(join(head, "node_modules", ".pnpm-workspace-state-v1.json"), "utf8");
    expect(state).toContain(join(head, "app"));
    expect(state).not.toContain(base);
    // pnpm checks the install before it runs a script, and installs again (printing "Done in …") when the copy is not one for head.
    const run = await execa("pnpm", ["run", "hello"], { cwd: join(head, "app"), stdin: "ignore", env: { FORCE_COLOR: "0" } });
    expect([run.stdout, run.stderr]).toEqual([`hello from ${join(head, "app")}`, "$ greet"]);
  });

  it("copies nothing when base has no node_modules folder, so head installs for itself", async () => {
    const dir = await mkdtemp(join(tmpdir(), "prove-reuse-"));
    scratch.push(dir);
    await Promise.all([checkout(join(dir, "base")), checkout(join(dir, "head"))]);
    expect(await Effect.runPromise(copyInstalled(join(dir, "base"), join(dir, "head")))).toBe(0);
  });
});
