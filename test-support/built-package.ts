import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { bundlePackage } from "../build/bundles.ts";

/** This checkout: the repository's root, one folder up from here. */
const checkout = resolve(import.meta.dirname, "..");

/** The folders whose TypeScript the package's bundles may be made from. */
const sourceFolders = ["common", "harness", "replay-agent", "prove"];

/**
 * What the bundler reads besides the sources: esbuild reads tsconfig.json for the TypeScript, and
 * the bundles carry the installed dependencies' code, whose versions the lockfile pins.
 */
const buildFiles = ["package.json", "pnpm-lock.yaml", "tsconfig.json", "build/bundles.ts"];

/** The entries the tests start: the package's bins as they run in an installed package, where dist/bin/ holds their bundles. */
const entries = {
  "prove-scenario.mjs": `// prove-scenario from this build's bundle, as bin/prove-scenario.mjs runs it in an installed package.
const { main } = await import("./bin/prove-scenario.js");
process.exitCode = await main(process.argv.slice(2));
`,
  "replay-agent.mjs": `// replay-agent from this build's bundle, as bin/replay-agent.mjs runs it in an installed package.
const { main } = await import("./bin/replay-agent.js");
process.exitCode = await main(process.argv.slice(2));
`,
};

/** Every TypeScript file under `dir`, tests and end-to-end support left out, as paths from `root`. */
async function sources(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true });
  const found = await Promise.all(
    entries.map(async (item) => {
      const path = join(dir, item.name);
      if (item.isDirectory()) return item.name === "node_modules" || path === join("prove", "e2e") ? [] : sources(root, path);
      return item.name.endsWith(".ts") && !item.name.endsWith(".test.ts") ? [path] : [];
    }),
  );
  return found.flat();
}

/**
 * The bytes the build depends on, hashed: every file it may compile (more than it does, never
 * fewer, so a build is never taken for another's) and its configuration.
 */
async function sourcesHash(): Promise<string> {
  const files = [...(await Promise.all(sourceFolders.map((dir) => sources(checkout, dir)))).flat(), ...buildFiles].sort();
  const hash = createHash("sha256").update(JSON.stringify(entries));
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(await readFile(join(checkout, file)))
      .update("\0");
  return hash.digest("hex");
}

/**
 * Removes what builds of killed test runs left beside the checkout's build (`<name>.<pid>`,
 * `<name>.old-<pid>`) once older than a build takes, and this process's own.
 */
async function removeAbandoned(name: string): Promise<void> {
  for (const entry of (await readdir(checkout)).filter((candidate) => candidate.startsWith(`${name}.`))) {
    const path = join(checkout, entry);
    const changed = (await stat(path).catch(() => undefined))?.mtimeMs ?? Date.now();
    if (Date.now() - changed > 10 * 60_000 || entry === `${name}.${String(process.pid)}`) await rm(path, { recursive: true, force: true });
  }
}

/**
 * The package as a user who installed it runs it, built from this checkout's sources by the
 * package's own bundler (build/bundles.ts; the package's build adds tsc's declarations, which no
 * test loads, and its type check, which `pnpm typecheck` makes): the tests start its bins instead of the clone's
 * bin/*.mjs, which compile the source through tsx at every start (about 0.9 CPU-s more each), and
 * the scenarios they write import its harness (lib/harness.js) as a user's import the package's.
 * Built into `.e2e-prover/` of the checkout, so its package root (two folders up from the bundles
 * in bin/) is the checkout, as dist/'s is, and built again only when the sources' bytes change.
 * Returns the build's folder.
 */
async function buildPackage(): Promise<string> {
  const dir = join(checkout, ".e2e-prover");
  const stamp = "sources.sha256";
  const hash = await sourcesHash();
  if ((await readFile(join(dir, stamp), "utf8").catch(() => "")) === hash) return dir;

  const fresh = `${dir}.${String(process.pid)}`;
  await removeAbandoned(basename(dir));
  await bundlePackage(checkout, fresh);
  for (const [name, text] of Object.entries(entries)) await writeFile(join(fresh, name), text);
  await writeFile(join(fresh, stamp), hash);
  // The old build goes aside before the new one takes its place; a test file building at the same time keeps its own if it came first.
  const old = `${dir}.old-${String(process.pid)}`;
  await rename(dir, old).catch(() => undefined);
  await rename(fresh, dir).catch(() => rm(fresh, { recursive: true, force: true }));
  await rm(old, { recursive: true, force: true });
  return dir;
}

let built: Promise<string> | undefined;

/** The build (see buildPackage), hashed and checked once a process: a test file's later calls read no source again. */
const builtPackage = (): Promise<string> =>
  (built ??= buildPackage().catch((error: unknown) => {
    built = undefined;
    throw error;
  }));

/** prove-scenario as an installed package runs it (see builtPackage): the entry to start with node. */
export const builtProver = async (): Promise<string> => join(await builtPackage(), "prove-scenario.mjs");

/** replay-agent as an installed package runs it (see builtPackage): the entry to start with node. */
export const builtReplayAgent = async (): Promise<string> => join(await builtPackage(), "replay-agent.mjs");

/** The harness as an installed package exports it (`scenario-prover/harness`), from this build's bundle (see builtPackage). */
export const builtHarness = async (): Promise<string> => join(await builtPackage(), "lib", "harness.js");

/**
 * scenario-prover as installed in the node_modules folder `modules`, for a repository's scenarios
 * to import `scenario-prover/harness` from: a package exporting this build's harness (see builtHarness).
 */
export async function installBuiltHarness(modules: string): Promise<void> {
  const prover = join(modules, "scenario-prover");
  await mkdir(prover, { recursive: true });
  await writeFile(join(prover, "package.json"), JSON.stringify({ name: "scenario-prover", exports: { "./harness": "./harness.js" } }));
  await writeFile(join(prover, "harness.js"), `export * from ${JSON.stringify(await builtHarness())};\n`);
}
