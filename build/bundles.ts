import { join } from "node:path";
import { build, type BuildOptions } from "esbuild";

/** The bins' entry modules in the sources, each exporting `main`. */
const bins = {
  "prove-scenario": "prove/cli.ts",
  "replay-agent": "replay-agent/cli.ts",
} as const;

/** The library's entry modules in the sources, one for each of the package's exports (`scenario-prover/harness`, …). */
const library = {
  harness: "harness/index.ts",
  "replay-agent": "replay-agent/index.ts",
  prove: "prove/index.ts",
} as const;

/** What both kinds of bundle share: ES modules for Node 20, every dependency inside but those named. */
const common = (external: ReadonlyArray<string>): BuildOptions => ({
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // sharp loads its native binary for the platform at run time; Playwright must be the one copy the user's runner loads.
  external: [...external],
  // The CommonJS dependencies bundled (simple-git, cross-spawn) require Node's modules by name.
  banner: { js: 'import { createRequire as bundleRequire } from "node:module";\nconst require = bundleRequire(import.meta.url);' },
  logLevel: "warning",
});

/**
 * Bundles each bin's entry of the sources in `root`, with every dependency it imports, into one
 * module, `<dir>/bin/<name>.mjs` (dist/ for the package), which bin/<name>.mjs of an installed
 * package imports: Node reads one file instead of some 350 (the prover, Effect, execa,
 * simple-git), and a start takes about 0.22 CPU-s less. esbuild compiles the TypeScript as tsx does
 * in a clone (the sources are isolated modules); tsc writes the package's declarations. The bundle
 * sits two folders below the package's root, where package-root.ts and stdio-peer.ts look for the
 * package's root and its bin/ from a built module.
 */
async function bundleBins(root: string, dir: string): Promise<void> {
  await build({
    ...common(["sharp"]),
    entryPoints: Object.entries(bins).map(([name, entry]) => ({ in: join(root, entry), out: name })),
    outdir: join(dir, "bin"),
    outExtension: { ".js": ".mjs" },
  });
}

/**
 * Bundles the library the package exports from the sources in `root` into `<dir>/lib/<export>.js`.
 * The harness, which every Playwright process of a scenario imports through its config (the
 * listing, the runner, the worker), then loads a handful of modules instead of some 370 (its own,
 * the replay agent's, Effect's, execa's), which Playwright's loader resolves one by one: about 0.9
 * CPU-s less a run, measured. The three exports share their chunks (one Effect, one copy of each
 * error class), and what the harness imports only when a test runs (the replay agent, the app's
 * start) stays in chunks of its own, so a listing loads no more than before. Two folders below the
 * package's root, as the bins' bundles.
 */
async function bundleLibrary(root: string, dir: string): Promise<void> {
  await build({
    ...common(["sharp", "@playwright/test", "playwright", "playwright-core"]),
    entryPoints: Object.entries(library).map(([name, entry]) => ({ in: join(root, entry), out: name })),
    outdir: join(dir, "lib"),
    splitting: true,
  });
}

/** Every bundle of the package, from the sources in `root` into `dir`: the bins' in bin/, the library's in lib/. */
export async function bundlePackage(root: string, dir: string): Promise<void> {
  await Promise.all([bundleBins(root, dir), bundleLibrary(root, dir)]);
}
