import { join } from "node:path";
import { build } from "esbuild";

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
  // Not an export: the reporter the prover adds to a proof's run (its path, from the prover's package root).
  "steps-reporter": "harness/steps-reporter.ts",
} as const;

/** The Node preload the route gives an app (`NODE_OPTIONS=--require`), and its bundle in dist/. */
export const routePreload = { source: "harness/route/preload.ts", bundle: "bin/route-preload.cjs" } as const;

/**
 * Bundles the route's preload from the sources in `root` into `outfile`: one CommonJS file with its
 * dependencies (undici, global-agent), since `--require` loads it in the app's Node, whatever
 * version, where neither TypeScript nor this package's node_modules can be counted on.
 */
export async function bundleRoutePreload(root: string, outfile: string): Promise<void> {
  await build({
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node18",
    logLevel: "warning",
    entryPoints: [join(root, routePreload.source)],
    outfile,
  });
}

/**
 * Bundles the package from the sources in `root` into `dir` (dist/ for the package), in one esbuild
 * build with code splitting: each bin's entry, exporting `main`, into `bin/<name>.js`, which
 * bin/<name>.mjs of an installed package imports, and each export's into `lib/<export>.js`, with the
 * code they share in chunks beside the exports' (one copy of the prover, Effect and each error
 * class for all five). A bin's start then reads a few files instead of some 350 modules (the prover,
 * Effect, execa, simple-git): about 0.22 CPU-s less, measured. The harness, which every Playwright
 * process of a scenario imports through its config (the listing, the runner, the worker), loads a
 * handful of modules instead of some 370 that Playwright's loader resolves one by one: about 0.9
 * CPU-s less a run, measured; what it imports only when a test runs (the replay agent, the app's
 * start) stays in chunks of its own, so a listing loads no more than before. esbuild compiles the
 * TypeScript as tsx does in a clone (the sources are isolated modules); tsc writes the package's
 * declarations. Every output sits two folders below the package's root, where package-root.ts and
 * stdio-peer.ts look for the package's root and its bin/ from a built module.
 */
export async function bundlePackage(root: string, dir: string): Promise<void> {
  await build({
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // sharp loads its native binary for the platform at run time; Playwright must be the one copy the user's runner loads;
    // mockttp (the route's proxy) is some 11 MB bundled, loaded only by a test whose config routes hosts.
    // pg (the postgres service's readiness check) requires its optional native binding by name.
    external: ["sharp", "@playwright/test", "playwright", "playwright-core", "mockttp", "pg"],
    // The CommonJS dependencies bundled (simple-git, cross-spawn) require Node's modules by name.
    banner: { js: 'import { createRequire as bundleRequire } from "node:module";\nconst require = bundleRequire(import.meta.url);' },
    logLevel: "warning",
    entryPoints: [
      ...Object.entries(bins).map(([name, entry]) => ({ in: join(root, entry), out: `bin/${name}` })),
      ...Object.entries(library).map(([name, entry]) => ({ in: join(root, entry), out: `lib/${name}` })),
    ],
    outdir: dir,
    splitting: true,
    chunkNames: "lib/[name]-[hash]",
  });
  await bundleRoutePreload(root, join(dir, routePreload.bundle));
}
