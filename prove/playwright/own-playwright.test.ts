import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownPlaywright, type OwnPlaywright } from "./own-playwright.ts";

let work: string;

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "prove-own-playwright-")));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** This machine as the table sees it: pnpm 12 and npm 11 on PATH, no yarn. */
const machine = (manager: string) => ({ pnpm: "12.4.2", npm: "11.19.1" })[manager];
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const old = { devDependencies: { "@playwright/test": "1.38.0" } };

interface Row {
  readonly shape: string;
  readonly files: Readonly<Record<string, string>>;
  /** The app's folder (or the config's), relative to the repository's root. */
  readonly app: string;
  readonly own: OwnPlaywright;
}

describe("the way a repository on an older Playwright keeps it and still runs a proof", () => {
  it.each<Row>([
    {
      shape: "a pnpm workspace whose root pins the older one, by its pinned pnpm: the app's package takes its own",
      files: {
        "package.json": json({ private: true, packageManager: "pnpm@9.15.9", ...old }),
        "pnpm-workspace.yaml": "packages:\n  - docs\n",
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "docs/package.json": json({ name: "docs", scripts: { dev: "node server.js" } }),
      },
      app: "docs",
      own: { folder: ".", command: "npx --yes --prefix=/ pnpm@9.15.9 add -D scenario-prover @playwright/test@1.65" },
    },
    {
      shape: "an npm workspace whose root has the older one: the app's package takes its own",
      files: {
        "package.json": json({ private: true, workspaces: ["web"], ...old }),
        "package-lock.json": "{}\n",
        "web/package.json": json({ name: "web", scripts: { start: "node server.js" } }),
      },
      app: "web",
      own: { folder: ".", command: "npm install -D scenario-prover @playwright/test@1.65" },
    },
    {
      shape: "a yarn 1 workspace, which would hoist the app's copy over the root's: a package of their own",
      files: {
        "package.json": json({ private: true, workspaces: ["web"], ...old }),
        "yarn.lock": "# yarn lockfile v1\n",
        "web/package.json": json({ name: "web", version: "1.0.0", scripts: { start: "node server.js" } }),
      },
      app: "web",
      own: { folder: "proofs", command: "cd proofs && npx --yes --prefix=/ yarn@1 add -D scenario-prover @playwright/test@1.65" },
    },
    {
      shape: "a yarn 4 repository, whose yarn refuses a folder that is not a workspace: a package of their own, installed by npm",
      files: {
        "package.json": json({ packageManager: "yarn@4.9.1", scripts: { dev: "vite dev" }, ...old }),
        "yarn.lock": "__metadata:\n  version: 8\n",
      },
      app: ".",
      own: { folder: "proofs", command: "cd proofs && npm install -D scenario-prover @playwright/test@1.65" },
    },
    {
      shape: "a pnpm workspace whose app lists the older one itself: a package of their own",
      files: {
        "package.json": json({ private: true }),
        "pnpm-workspace.yaml": "packages:\n  - web\n",
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "web/package.json": json({ name: "web", scripts: { dev: "vite dev" }, ...old }),
      },
      app: "web",
      own: { folder: "proofs", command: "cd proofs && pnpm add -D scenario-prover @playwright/test@1.65" },
    },
    {
      shape: "one npm package with the older one",
      files: { "package.json": json({ scripts: { start: "node server.js" }, ...old }), "package-lock.json": "{}\n" },
      app: ".",
      own: { folder: "proofs", command: "cd proofs && npm install -D scenario-prover @playwright/test@1.65" },
    },
    {
      shape: "the config's folder is that package already, not installed yet",
      files: {
        "package.json": json({ scripts: { start: "node server.js" }, ...old }),
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "proofs/package.json": json({ private: true }),
      },
      app: "proofs",
      own: { folder: ".", command: "pnpm add -D scenario-prover @playwright/test@1.65" },
    },
  ])("$shape", async ({ shape, files, app, own }) => {
    const repo = join(work, shape.replace(/\W+/g, "-"));
    for (const [file, text] of Object.entries(files)) {
      await mkdir(dirname(join(repo, file)), { recursive: true });
      await writeFile(join(repo, file), text);
    }
    expect(ownPlaywright(join(repo, app), repo, machine)).toEqual(own);
  });
});
