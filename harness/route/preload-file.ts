import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** This package's root folder: two up from the source (harness/route/) and from a bundle (dist/lib/) alike. */
const packageRoot = fileURLToPath(new URL("../..", import.meta.url));

/** What build/bundles.ts gives the route: the preload's bundling. */
interface PreloadBuild {
  bundleRoutePreload(root: string, outfile: string): Promise<void>;
}

/** The bundle of the route's preload in a build (dist/bin/ of an installed package), beside this bundle's lib/ (see build/bundles.ts). */
const installedPreload = fileURLToPath(new URL("../bin/route-preload.cjs", import.meta.url));

/** The preload bundled from the sources, once in a process: esbuild's build costs more than the route's start. */
let bundled: Promise<string> | undefined;

/**
 * The JavaScript file the app's Node loads with `--require`: in an installed package, the bundle
 * dist/ ships; in a clone of this project, where the harness runs from its TypeScript, a bundle
 * made from the sources with the build's own function (once in a process, so it is never stale),
 * written into `dir`.
 */
export async function preloadFile(dir: string): Promise<string> {
  if (!import.meta.url.endsWith(".ts")) return installedPreload;
  bundled ??= (async () => {
    // A path the package's bundler does not follow: the build and esbuild exist in a clone only.
    const build = (await import(pathToFileURL(join(packageRoot, "build", "bundles.ts")).href)) as PreloadBuild;
    const scratch = await mkdtemp(join(tmpdir(), "scenario-route-preload-"));
    try {
      await build.bundleRoutePreload(packageRoot, join(scratch, "route-preload.cjs"));
      return await readFile(join(scratch, "route-preload.cjs"), "utf8");
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  })();
  const file = join(dir, "route-preload.cjs");
  await writeFile(file, await bundled);
  return file;
}
