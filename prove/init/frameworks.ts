/** How a framework names the path its app is served under, in its config file. */
export interface BaseSetting {
  /** The config key, e.g. "basePath", "base", "baseURL". */
  readonly key: string;
  /** The object the key sits in, when it is nested: SvelteKit's `paths.base`, Nuxt's `app.baseURL`. */
  readonly within?: string;
  /** Vite serves its base with a trailing slash whatever is written; the others serve it as written. */
  readonly trailingSlash: "add" | "as-written";
  readonly files: ReadonlyArray<string>;
}

/** A framework init recognises, and what it means for the config. */
export interface Framework {
  readonly name: string;
  /** Packages in package.json that mark it; the first one found gives the version shown. */
  readonly packages: ReadonlyArray<string>;
  /** Config files that mark it, relative to the app's folder. */
  readonly configFiles: ReadonlyArray<string>;
  /** What a config file's text must say to mark it (svelte.config.js is also plain Svelte's). */
  readonly configSays?: RegExp;
  readonly base: BaseSetting | undefined;
  /** The host the browser must use, when the framework wants one, and why. */
  readonly host?: { readonly host: string; readonly why: string };
  /** Set for a dev server that compiles a page on its first request: why the timeouts are long. */
  readonly compiles?: string;
  /** The app's API routes, from its files (`list` gives the files under a folder of the app's); each a path and its file. */
  readonly apiRoutes?: (list: (folder: string) => ReadonlyArray<string>) => ReadonlyArray<ApiRoute>;
  /** Set for a dev server that compiles an API route on its first request: why app.ready.warm asks for them. */
  readonly compilesRoutes?: string;
}

/** An API route an app's files define: the path it answers at (without a base path), and its file. */
export interface ApiRoute {
  readonly path: string;
  readonly file: string;
}

/** The extensions of the files Next.js takes as routes by default (its `pageExtensions`). */
const routeFile = /^(.*)\.(?:tsx|ts|jsx|js|mjs)$/;

/**
 * A Next.js app's API routes: App Router handlers (the `route.ts` files under `app/api` or `src/app/api`), with route
 * groups and private folders left out of the path, and Pages Router API files (under `pages/api` or `src/pages/api`). Dynamic routes
 * (`[id]`) are left out: no path names them all, and another would run the handler with a made-up parameter.
 */
function nextApiRoutes(list: (folder: string) => ReadonlyArray<string>): ReadonlyArray<ApiRoute> {
  const dynamic = (segments: ReadonlyArray<string>) => segments.some((segment) => segment.startsWith("["));
  const appRoutes = ["app", "src/app"].flatMap((root) =>
    list(`${root}/api`).flatMap((file) => {
      const segments = file.split("/");
      const name = routeFile.exec(segments.at(-1) ?? "")?.[1];
      const folders = segments.slice(0, -1);
      if (name !== "route" || dynamic(folders) || folders.some((folder) => folder.startsWith("_"))) return [];
      const path = ["api", ...folders.filter((folder) => !/^\(.*\)$/.test(folder))].join("/");
      return [{ path: `/${path}`, file: `${root}/api/${file}` }];
    }),
  );
  const pagesRoutes = ["pages", "src/pages"].flatMap((root) =>
    list(`${root}/api`).flatMap((file) => {
      const segments = file.split("/");
      const name = routeFile.exec(segments.at(-1) ?? "")?.[1];
      if (name === undefined || name.endsWith(".d") || dynamic(segments) || segments.some((segment) => segment.startsWith("_"))) return [];
      const path = ["api", ...segments.slice(0, -1), ...(name === "index" ? [] : [name])].join("/");
      return [{ path: `/${path}`, file: `${root}/api/${file}` }];
    }),
  );
  const seen = new Set<string>();
  return [...appRoutes, ...pagesRoutes]
    .filter((route) => !seen.has(route.path) && seen.add(route.path))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const configNames = (stem: string, extensions: ReadonlyArray<string>) => extensions.map((extension) => `${stem}.${extension}`);
export const viteConfigNames = configNames("vite.config", ["ts", "mts", "js", "mjs", "cjs"]);

/** Recognised frameworks, the ones built on Vite before Vite itself. */
export const frameworks: ReadonlyArray<Framework> = [
  {
    name: "Next.js",
    packages: ["next"],
    configFiles: configNames("next.config", ["ts", "mts", "js", "mjs", "cjs"]),
    base: { key: "basePath", trailingSlash: "as-written", files: configNames("next.config", ["ts", "mts", "js", "mjs", "cjs"]) },
    host: {
      host: "localhost",
      why: "Next.js dev serves its dev resources (HMR, chunks) to localhost only: from 127.0.0.1 the page never hydrates",
    },
    compiles: "next dev compiles each page on its first request",
    apiRoutes: nextApiRoutes,
    compilesRoutes: "next dev compiles each API route on its first request, so these are asked for before each test",
  },
  {
    name: "Nuxt",
    packages: ["nuxt", "nuxi"],
    configFiles: configNames("nuxt.config", ["ts", "mts", "js", "mjs", "cjs"]),
    base: {
      key: "baseURL",
      within: "app",
      trailingSlash: "as-written",
      files: configNames("nuxt.config", ["ts", "mts", "js", "mjs", "cjs"]),
    },
    compiles: "nuxt dev builds the app and each page on first request",
  },
  {
    name: "SvelteKit",
    packages: ["@sveltejs/kit"],
    configFiles: configNames("svelte.config", ["js", "mjs", "ts"]),
    configSays: /@sveltejs\/|\bkit\s*:/,
    base: { key: "base", within: "paths", trailingSlash: "as-written", files: configNames("svelte.config", ["js", "mjs", "ts"]) },
  },
  {
    name: "Astro",
    packages: ["astro"],
    configFiles: configNames("astro.config", ["mjs", "ts", "mts", "js", "cjs"]),
    base: { key: "base", trailingSlash: "as-written", files: configNames("astro.config", ["mjs", "ts", "mts", "js", "cjs"]) },
    compiles: "astro dev syncs content at boot and compiles each page on its first request",
  },
  {
    name: "React Router",
    packages: ["@react-router/dev"],
    configFiles: configNames("react-router.config", ["ts", "js", "mjs"]),
    base: { key: "basename", trailingSlash: "as-written", files: configNames("react-router.config", ["ts", "js", "mjs"]) },
  },
  {
    name: "Remix",
    packages: ["@remix-run/dev"],
    configFiles: configNames("remix.config", ["js", "mjs", "cjs"]),
    base: { key: "basename", trailingSlash: "as-written", files: viteConfigNames },
  },
  {
    name: "Vite",
    packages: ["vite"],
    configFiles: viteConfigNames,
    base: { key: "base", trailingSlash: "add", files: viteConfigNames },
  },
];

/** A framework as found in an app, with what found it. */
export interface FrameworkFound {
  readonly framework: Framework;
  /** The major version from package.json's range, e.g. "16"; undefined for "latest", "workspace:*" and the like. */
  readonly version: string | undefined;
  /** e.g. `next "^16.0.1" in package.json, next.config.ts`. */
  readonly why: string;
}

/** The version range package.json gives `name`, from dependencies or devDependencies. */
export function dependencyRange(packageJson: Readonly<Record<string, unknown>>, name: string): string | undefined {
  for (const key of ["dependencies", "devDependencies"]) {
    const deps = packageJson[key];
    if (typeof deps !== "object" || deps === null || !(name in deps)) continue;
    const range = (deps as Record<string, unknown>)[name];
    return typeof range === "string" ? range : "";
  }
  return undefined;
}

/** The first framework whose package is in package.json or whose config file is in the app's folder. */
export function findFramework(
  packageJson: Readonly<Record<string, unknown>>,
  read: (file: string) => string | undefined,
): FrameworkFound | undefined {
  for (const framework of frameworks) {
    const found = framework.packages.flatMap((name) => {
      const range = dependencyRange(packageJson, name);
      return range === undefined ? [] : [{ name, range }];
    })[0];
    const config = framework.configFiles.find((file) => {
      const text = read(file);
      return text !== undefined && (framework.configSays === undefined || framework.configSays.test(text));
    });
    if (found === undefined && config === undefined) continue;
    const version = found === undefined || /^(?:workspace|catalog|link|file):/.test(found.range) ? undefined : /\d+/.exec(found.range)?.[0];
    const why = [
      ...(found === undefined ? [] : [`${found.name} ${JSON.stringify(found.range)} in package.json`]),
      ...(config === undefined ? [] : [config]),
    ].join(", ");
    return { framework, version, why };
  }
  return undefined;
}
