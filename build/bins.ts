import { join } from "node:path";
import { build } from "esbuild";

/** The bins' entry modules in a build of the package (tsc's JavaScript), each exporting `main`. */
const entries = {
  "prove-scenario": "prove/cli.js",
  "replay-agent": "replay-agent/cli.js",
} as const;

/**
 * Bundles each bin's entry of the build in `dir` (dist/ for the package) with every dependency it
 * imports into one module, `<dir>/bin/<name>.mjs`, which bin/<name>.mjs of an installed package
 * imports. Node then reads one file instead of some 350 (the prover, Effect, execa, simple-git):
 * a start takes about 0.22 CPU-s less. The bundle sits two folders below the package's root, as
 * `<dir>/prove/package-root.js` does, so the paths the code finds from its own module (the
 * package's root, its bin/) are the same. sharp stays outside: it loads its native binary for the
 * platform at run time.
 */
export async function bundleBins(dir: string): Promise<void> {
  await build({
    entryPoints: Object.entries(entries).map(([name, entry]) => ({ in: join(dir, entry), out: name })),
    outdir: join(dir, "bin"),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["sharp"],
    // The CommonJS dependencies bundled (simple-git, cross-spawn) require Node's modules by name.
    banner: { js: 'import { createRequire as bundleRequire } from "node:module";\nconst require = bundleRequire(import.meta.url);' },
    logLevel: "warning",
  });
}
