import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { simpleGit } from "simple-git";
import * as Effect from "effect/Effect";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { readTranscript } from "../../replay-agent/index.ts";
import { basePathOf } from "./base-path.ts";
import { detectApp } from "./detect.ts";
import { InitFailed, InitRefused, initScenarios } from "./index.ts";
import type { SdkProvider } from "./provider-sdks.ts";
import { tryCommands } from "./try-commands.ts";
import { processesMentioning } from "../e2e/support/processes.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A temporary folder holding `files` (paths relative to it), a git repository unless `git` is false. */
async function folder(files: Readonly<Record<string, string>>, options: { readonly git: boolean } = { git: true }): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "prove-init-")));
  scratch.push(root);
  if (options.git) await simpleGit(root).init();
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
  return root;
}

/** What TypeScript reports when it parses `text` as the file `fileName`; empty for valid TypeScript. */
function syntaxErrors(text: string, fileName: string): string[] {
  const output = ts.transpileModule(text, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return (output.diagnostics ?? []).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

const read = (dir: string, file: string) => readFile(join(dir, file), "utf8");
/** For the folders that are no real app: init writes its files without trying the install and the start (the last describe tries them). */
const untried = { tryCommands: async () => ({ worked: [], failed: [] }) };
const viteFlags = "--host 127.0.0.1 --port {port} --strictPort";

describe("detecting how the app starts", () => {
  const byBin = (script: string, why: string, runner = "npx from node_modules/.bin") =>
    `the dev script \`${script}\`, its tool run by ${runner}; ${why}`;
  const byYarn = "`yarn <bin>`, which finds it under Plug'n'Play too";
  it.each([
    [
      "a Vite dev server with npm and no lockfile",
      { scripts: { dev: "vite" } },
      undefined,
      {},
      "npm (no lockfile)",
      `npx vite ${viteFlags}`,
      "flags",
      byBin("vite", "Vite takes the port as a flag"),
    ],
    [
      "`vite dev --open` with a pnpm lockfile above the app, without its --open",
      { scripts: { dev: "vite dev --open" } },
      "../../pnpm-lock.yaml",
      {},
      "pnpm (../../pnpm-lock.yaml)",
      `npx vite dev ${viteFlags}`,
      "flags",
      byBin("vite dev --open", "Vite takes the port as a flag"),
    ],
    [
      "`node server.js` whose file reads PORT",
      { scripts: { start: "node server.js" } },
      "package-lock.json",
      { "server.js": "app.listen(process.env.PORT);\n" },
      "npm (package-lock.json)",
      "npm start",
      "env",
      "server.js reads the PORT environment variable",
    ],
    [
      "`node server.js` whose file does not read PORT",
      { scripts: { start: "node server.js" } },
      undefined,
      { "server.js": "app.listen(3000);\n" },
      "npm (no lockfile)",
      "npm start",
      "unknown",
      "server.js does not read process.env.PORT",
    ],
    [
      "`next dev`",
      { scripts: { dev: "next dev", start: "next start" } },
      undefined,
      {},
      "npm (no lockfile)",
      "npx next dev -p {port}",
      "flags",
      byBin("next dev", "next dev takes the port as -p"),
    ],
    [
      "`next dev` with a port of its own, replaced",
      { scripts: { dev: "next dev --turbopack -p 3001" } },
      "yarn.lock",
      { "yarn.lock": "# yarn lockfile v1\n" },
      "yarn (yarn.lock)",
      "npx next dev --turbopack -p {port}",
      "flags",
      byBin("next dev --turbopack -p 3001", "next dev takes the port as -p"),
    ],
    [
      "`astro dev`",
      { scripts: { dev: "astro dev" } },
      undefined,
      {},
      "npm (no lockfile)",
      "npx astro dev --host 127.0.0.1 --port {port}",
      "flags",
      byBin("astro dev", "Astro takes the port as a flag"),
    ],
    [
      "`nuxt dev` with a variable and a port of its own",
      { scripts: { dev: "NODE_OPTIONS=--max-old-space-size=4096 nuxt dev --port=3000 -o" } },
      undefined,
      {},
      "npm (no lockfile)",
      "NODE_OPTIONS=--max-old-space-size=4096 npx nuxt dev --host 127.0.0.1 --port {port}",
      "flags",
      byBin("NODE_OPTIONS=--max-old-space-size=4096 nuxt dev --port=3000 -o", "nuxt dev takes the port as a flag"),
    ],
    [
      "`react-router dev`",
      { scripts: { dev: "react-router dev" } },
      undefined,
      {},
      "npm (no lockfile)",
      `npx react-router dev ${viteFlags}`,
      "flags",
      byBin("react-router dev", "react-router dev takes the port as a flag"),
    ],
    [
      "`remix vite:dev` with bun",
      { scripts: { dev: "remix vite:dev" } },
      "bun.lock",
      {},
      "bun (bun.lock)",
      `bunx remix vite:dev ${viteFlags}`,
      "flags",
      byBin("remix vite:dev", "remix vite:dev takes the port as a flag", "bunx from node_modules/.bin"),
    ],
    [
      "classic `remix dev`, whose app server reads PORT",
      { scripts: { dev: "remix dev" } },
      undefined,
      {},
      "npm (no lockfile)",
      "npm run dev",
      "env",
      "Remix reads the PORT environment variable",
    ],
    [
      "`svelte-kit sync && vite dev`, run as written",
      { scripts: { dev: "svelte-kit sync && vite dev" } },
      undefined,
      {},
      "npm (no lockfile)",
      `npm run dev -- ${viteFlags}`,
      "flags",
      "Vite takes the port as a flag",
    ],
    [
      "a predev script, run as written",
      { scripts: { predev: "node gen.js", dev: "vite" } },
      undefined,
      {},
      "npm (no lockfile)",
      `npm run dev -- ${viteFlags}`,
      "flags",
      "Vite takes the port as a flag",
    ],
    [
      "`webpack serve`",
      { scripts: { start: "webpack serve --mode development" } },
      undefined,
      {},
      "npm (no lockfile)",
      "npx webpack serve --mode development --port {port}",
      "flags",
      byBin("webpack serve --mode development", "webpack-dev-server takes the port as a flag").replace("dev script", "start script"),
    ],
    [
      "dev, preferred over start, in a wrapper",
      { scripts: { start: "node server.js", dev: "cross-env DEBUG=1 vite" } },
      undefined,
      {},
      "npm (no lockfile)",
      `npm run dev -- ${viteFlags}`,
      "flags",
      "Vite takes the port as a flag",
    ],
    [
      "the packageManager field of Yarn 4, naming no linker: a proof's install gives it node_modules/.bin",
      { packageManager: "yarn@4.1.0", scripts: { dev: "vite" } },
      undefined,
      {},
      'yarn (packageManager "yarn@4.1.0" in package.json)',
      `npx vite ${viteFlags}`,
      "flags",
      byBin("vite", "Vite takes the port as a flag"),
    ],
    [
      "a Yarn 2+ lockfile",
      { scripts: { dev: "vite" } },
      "yarn.lock",
      { "yarn.lock": "__metadata:\n  version: 8\n" },
      "yarn (yarn.lock)",
      `npx vite ${viteFlags}`,
      "flags",
      byBin("vite", "Vite takes the port as a flag"),
    ],
    [
      "a yarn lockfile and a built server",
      { scripts: { start: "tsc && node -r dotenv/config dist/server" } },
      "yarn.lock",
      { "dist/server.js": 'const { PORT = "3000" } = process.env;\n' },
      "yarn (yarn.lock)",
      "yarn start",
      "env",
      "dist/server.js reads the PORT environment variable",
    ],
    [
      "a bun lockfile and `bun --hot`",
      { scripts: { dev: "bun --hot src/index.ts" } },
      "bun.lock",
      { "src/index.ts": 'Bun.serve({ port: Bun.env["PORT"] });\n' },
      "bun (bun.lock)",
      "bun run dev",
      "env",
      "src/index.ts reads the PORT environment variable",
    ],
    [
      '`python3 app.py` whose file reads os.environ["PORT"]',
      { scripts: { start: "python3 app.py" } },
      undefined,
      { "app.py": 'import os\n\nserver = HTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler)\n' },
      "npm (no lockfile)",
      "npm start",
      "env",
      "app.py reads the PORT environment variable",
    ],
    [
      '`python -u main.py` whose file reads os.environ.get("PORT")',
      { scripts: { dev: "python -u main.py" } },
      undefined,
      { "main.py": "import os\nport = int(os.environ.get('PORT', '8000'))\n" },
      "npm (no lockfile)",
      "npm run dev",
      "env",
      "main.py reads the PORT environment variable",
    ],
    [
      '`python3 server.py` whose file reads os.getenv("PORT")',
      { scripts: { start: "python3 server.py" } },
      undefined,
      { "server.py": 'from os import getenv\nPORT = int(getenv("PORT"))\n' },
      "npm (no lockfile)",
      "npm start",
      "env",
      "server.py reads the PORT environment variable",
    ],
    [
      "`python3 app.py` whose file does not read PORT",
      { scripts: { start: "python3 app.py" } },
      undefined,
      { "app.py": "app.run(port=5000)\n" },
      "npm (no lockfile)",
      "npm start",
      "unknown",
      'app.py does not read os.environ["PORT"]',
    ],
    [
      "a tool init does not know",
      { scripts: { dev: "turbo run dev --parallel" } },
      undefined,
      {},
      "npm (no lockfile)",
      "npm run dev",
      "unknown",
      "`turbo run dev --parallel` is not a server init knows",
    ],
  ])("reads %s", (_case, packageJson, lockfile, files: Readonly<Record<string, string>>, manager, start, port, why) => {
    const list = (folder: string) =>
      Object.keys(files)
        .filter((file) => file.startsWith(`${folder}/`))
        .map((file) => file.slice(folder.length + 1));
    const detection = detectApp({ dir: "/app", packageJson, lockfile, read: (file) => files[file], list });
    expect({
      manager: `${detection.manager.manager} (${detection.manager.why})`,
      start: detection.start.command,
      port: detection.start.port.kind,
      why: detection.start.port.kind === "unknown" ? detection.start.port.why : detection.start.why,
    }).toEqual({ manager, start, port, why });
  });

  it("runs a tool by `yarn <bin>` in a Yarn 4 repository whose .yarnrc.yml asks for Plug'n'Play, which has no node_modules/.bin", async () => {
    const dir = await folder({ ".yarnrc.yml": "nodeLinker: pnp\n" });
    const packageJson = { packageManager: "yarn@4.1.0", scripts: { dev: "vite" } };

    const detection = detectApp({ dir, packageJson, lockfile: undefined, read: () => undefined, list: () => [] });

    expect([detection.start.command, detection.start.port.kind === "unknown" ? "" : detection.start.why]).toEqual([
      `yarn vite ${viteFlags}`,
      byBin("vite", "Vite takes the port as a flag", byYarn),
    ]);
  });

  it.each([
    ['base: "/sub/"', "/sub/"],
    ["base: 'shop'", "/shop/"],
    ["base: `/a/b`", "/a/b/"],
    ['"base": "/docs/",', "/docs/"],
    ['base: "/"', undefined],
    ['base: "./"', undefined],
    ['database: "/db/"', undefined],
  ])("takes %s in a Vite config as the served path %s", (line, path) => {
    expect(basePathOf(`export default defineConfig({\n  ${line}\n});\n`)).toBe(path);
  });
});

describe("prove-scenario init", () => {
  it("writes a config and an example for a Vite app served under a sub-path, adds the script and ignores reports/", async () => {
    const packageJson = {
      name: "shop",
      type: "module",
      scripts: { dev: "vite", build: "vite build" },
      devDependencies: { "scenario-prover": "^0.1.0", vite: "^6.0.0" },
    };
    const dir = await folder({
      "package.json": `${JSON.stringify(packageJson, null, 2)}\n`,
      "vite.config.ts": "import { defineConfig } from \"vite\";\n\nexport default defineConfig({\n  base: '/sub/',\n});\n",
      ".gitignore": "node_modules",
    });

    const result = await initScenarios(dir, untried);

    expect(result).toEqual({
      written: ["scenarios.config.ts", "scenarios/example.e2e.ts", "package.json", ".gitignore"],
      detected: [
        "package manager: npm (no lockfile)",
        "install: npm install (no lockfile)",
        'framework: Vite 6 (vite "^6.0.0" in package.json, vite.config.ts)',
        `start: npx vite ${viteFlags} (the dev script \`vite\`, its tool run by npx from node_modules/.bin; Vite takes the port as a flag)`,
        "base path: /sub/ (base in vite.config.ts)",
        "ready: GET /sub/ within the harness's default timeout (Vite has no long first compile)",
        "app root: . (the repository's root)",
      ],
      notes: [],
      proveCommand: "npx prove-scenario --base <base-ref> --head HEAD scenarios/example.e2e.ts",
      exampleCommand: "npx playwright test -c scenarios.config.ts",
      tried: [],
      failed: [],
    });
    const config = await read(dir, "scenarios.config.ts");
    expect(config.split("\n")).toEqual(
      expect.arrayContaining([
        'import { defineScenarioConfig } from "scenario-prover/harness";',
        "  expect: { timeout: 5_000 },",
        "    root: \".\", // the app's folder, relative to the repository's root",
        '    install: "auto", // here: npm install (no lockfile); false skips installing',
        `    start: "npx vite ${viteFlags}", // the dev script \`vite\`, its tool run by npx from node_modules/.bin; Vite takes the port as a flag`,
        '    ready: { path: "/sub/" }, // base in vite.config.ts',
      ]),
    );
    const example = await read(dir, "scenarios/example.e2e.ts");
    expect(example).toContain('  await app.open("/sub/");\n');
    expect([...syntaxErrors(config, "scenarios.config.ts"), ...syntaxErrors(example, "example.e2e.ts")]).toEqual([]);
    expect(await read(dir, "package.json")).toBe(
      `${JSON.stringify({ ...packageJson, scripts: { ...packageJson.scripts, "prove-scenario": "prove-scenario" } }, null, 2)}\n`,
    );
    expect(await read(dir, ".gitignore")).toBe("node_modules\n/reports/\ntest-results/\n");
  });

  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const compiles = (why: string) => [`  timeout: 120_000, // a test's own time; ${why}`];
  const routesWhy = "next dev compiles each API route on its first request, so these are asked for before each test";
  /** The lines init prints about the framework and the model provider, and none of the package manager's. */
  const choices = (detected: ReadonlyArray<string>) =>
    detected.filter((line) => /^(framework|start|host|base path|ready|warm|app root|model provider|provider|route): /.test(line));
  /** The config's lines about the model provider: `provider`, `route` and the comment naming the SDKs left alone. */
  const providerLines = (lines: ReadonlyArray<string>) =>
    lines.filter((line) => /^ {4}(provider|route): |^ {4}\/\/ .* is the first model provider SDK/.test(line));
  interface FrameworkRow {
    readonly shape: string;
    readonly files: Readonly<Record<string, string>>;
    /** The app's folder in the repository. */
    readonly app: string;
    readonly detected: ReadonlyArray<string>;
    /** Lines the config holds. */
    readonly config: ReadonlyArray<string>;
    /** What the example passes to app.open(). */
    readonly open: string;
    /** The repository's .gitignore afterwards. */
    readonly gitignore: string;
    /** The notes on a base path init cannot read, and on what the app needs to reach the replay agent. */
    readonly notes: ReadonlyArray<string>;
    /** The provider of the example transcript init writes; undefined when the app lists no model provider SDK. */
    readonly transcript?: SdkProvider;
  }
  /** A Node server that reads PORT, with `dependencies`; init points the first provider SDK among them at the replay agent. */
  const nodeApp = (dependencies: Readonly<Record<string, string>>, more: Readonly<Record<string, string>> = {}) => ({
    "package.json": json({ scripts: { start: "node server.js" }, dependencies }),
    "server.js": "app.listen(process.env.PORT);\n",
    ...more,
  });
  const nodeStart = ["start: npm start (server.js reads the PORT environment variable)", "app root: . (the repository's root)"];
  /** A Python server started by a dev script, its packages in `file`. */
  const pythonApp = (file: string, text: string) => ({
    "package.json": json({ scripts: { dev: "uvicorn main:app --reload" } }),
    [file]: text,
  });
  const pythonStart = [
    "start: npm run dev (could not tell how the server gets its port: `uvicorn main:app --reload` is not a server init knows)",
    "app root: . (the repository's root)",
  ];
  /** A Python server's code that posts to `url` with urllib, its key from `key`. */
  const pythonUrllib = (url: string, key: string) =>
    "import json, os, urllib.request\n\n" +
    `def ask(body):\n    request = urllib.request.Request("${url}", data=json.dumps(body).encode(), headers={"Authorization": "Bearer " + os.environ["${key}"]})\n` +
    "    return urllib.request.urlopen(request)\n";
  /** A row for an app whose model provider SDK init points at the replay agent. */
  const sdkRow = (
    shape: string,
    files: Readonly<Record<string, string>>,
    detected: ReadonlyArray<string>,
    config: ReadonlyArray<string>,
    transcript: SdkProvider,
    notes: ReadonlyArray<string> = [],
  ): FrameworkRow => ({ shape, files, app: ".", detected, config, open: "", gitignore: "/reports/\ntest-results/\n", notes, transcript });
  const route = (why: string) => `    route: true, // ${why}`;
  it.each<FrameworkRow>([
    {
      shape: "a Next.js 16 app with npm and a basePath",
      files: {
        "package.json": json({
          scripts: { dev: "next dev", build: "next build", start: "next start" },
          dependencies: { next: "^16.0.1", react: "^19.2.0" },
        }),
        "package-lock.json": "{}\n",
        "next.config.ts":
          'import type { NextConfig } from "next";\n\nconst nextConfig: NextConfig = {\n  basePath: "/dash",\n};\n\nexport default nextConfig;\n',
        // API routes: a handler in a route group, one in src/app's private folder and a dynamic one are left out.
        "app/api/chat/route.ts": "export async function POST() {}\n",
        "app/(admin)/api/x/route.ts": "export async function GET() {}\n",
        "app/api/(tools)/search/route.ts": "export async function POST() {}\n",
        "app/api/items/[id]/route.ts": "export async function GET() {}\n",
        "app/api/_lib/route.ts": "export {};\n",
        "app/api/chat/prompt.ts": "export const prompt = '';\n",
      },
      app: ".",
      detected: [
        'framework: Next.js 16 (next "^16.0.1" in package.json, next.config.ts)',
        "start: npx next dev -p {port} (the dev script `next dev`, its tool run by npx from node_modules/.bin; next dev takes the port as -p)",
        "host: localhost (Next.js dev serves its dev resources (HMR, chunks) to localhost only: from 127.0.0.1 the page never hydrates)",
        "base path: /dash (basePath in next.config.ts)",
        "ready: GET /dash within 90s, each test within 120s (next dev compiles each page on its first request)",
        `warm: /dash/api/chat, /dash/api/search (app/api/chat/route.ts, app/api/(tools)/search/route.ts; ${routesWhy})`,
        "app root: . (the repository's root)",
      ],
      config: [
        ...compiles("next dev compiles each page on its first request"),
        '    start: "npx next dev -p {port}", // the dev script `next dev`, its tool run by npx from node_modules/.bin; next dev takes the port as -p',
        '    host: "localhost", // Next.js dev serves its dev resources (HMR, chunks) to localhost only: from 127.0.0.1 the page never hydrates',
        `    // warm: app/api/chat/route.ts, app/api/(tools)/search/route.ts; ${routesWhy}`,
        '    ready: { path: "/dash", timeout: 90_000, warm: ["/dash/api/chat", "/dash/api/search"] }, // basePath in next.config.ts; next dev compiles each page on its first request',
      ],
      open: '"/dash"',
      gitignore: "/reports/\ntest-results/\n",
      notes: [],
    },
    {
      shape: "a Next.js 13 app with a yarn v1 lockfile and a port of its own in the script",
      files: {
        "package.json": json({ scripts: { dev: "next dev -p 3001" }, dependencies: { next: "13.5.6" } }),
        "yarn.lock": "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n",
        // Pages Router API files: an index, a nested one; a dynamic one and a type declaration are left out.
        "src/pages/api/index.ts": "export default function handler() {}\n",
        "src/pages/api/chat/stream.js": "export default function handler() {}\n",
        "src/pages/api/users/[id].ts": "export default function handler() {}\n",
        "src/pages/api/types.d.ts": "export {};\n",
        ".gitignore": "/node_modules\n/test-results/\n",
      },
      app: ".",
      detected: [
        'framework: Next.js 13 (next "13.5.6" in package.json)',
        "start: npx next dev -p {port} (the dev script `next dev -p 3001`, its tool run by npx from node_modules/.bin; next dev takes the port as -p)",
        "host: localhost (Next.js dev serves its dev resources (HMR, chunks) to localhost only: from 127.0.0.1 the page never hydrates)",
        "base path: none (no basePath in the Next.js config)",
        "ready: GET / within 90s, each test within 120s (next dev compiles each page on its first request)",
        `warm: /api, /api/chat/stream (src/pages/api/index.ts, src/pages/api/chat/stream.js; ${routesWhy})`,
        "app root: . (the repository's root)",
      ],
      config: [
        ...compiles("next dev compiles each page on its first request"),
        `    // warm: src/pages/api/index.ts, src/pages/api/chat/stream.js; ${routesWhy}`,
        '    ready: { path: "/", timeout: 90_000, warm: ["/api", "/api/chat/stream"] }, // next dev compiles each page on its first request',
      ],
      open: "",
      gitignore: "/node_modules\n/test-results/\n/reports/\n",
      notes: [],
    },
    {
      shape: "an Astro site in a pnpm workspace's docs/ folder, with a base",
      files: {
        "package.json": json({ private: true, packageManager: "pnpm@9.15.9" }),
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "pnpm-workspace.yaml": "packages:\n  - docs\n",
        "docs/package.json": json({
          name: "docs",
          type: "module",
          scripts: { dev: "astro dev", build: "astro build" },
          dependencies: { astro: "^5.4.0", "@astrojs/starlight": "^0.32.0" },
        }),
        "docs/astro.config.mjs":
          "import { defineConfig } from 'astro/config';\n\nexport default defineConfig({\n  site: 'https://example.com',\n  base: '/docs',\n});\n",
      },
      app: "docs",
      detected: [
        'framework: Astro 5 (astro "^5.4.0" in package.json, astro.config.mjs)',
        "start: npx astro dev --host 127.0.0.1 --port {port} (the dev script `astro dev`, its tool run by npx from node_modules/.bin; Astro takes the port as a flag)",
        "base path: /docs (base in astro.config.mjs)",
        "ready: GET /docs within 90s, each test within 120s (astro dev syncs content at boot and compiles each page on its first request)",
        "app root: docs (relative to the repository's root)",
      ],
      config: [
        ...compiles("astro dev syncs content at boot and compiles each page on its first request"),
        "    root: \"docs\", // the app's folder, relative to the repository's root",
        '    start: "npx astro dev --host 127.0.0.1 --port {port}", // the dev script `astro dev`, its tool run by npx from node_modules/.bin; Astro takes the port as a flag',
        '    ready: { path: "/docs", timeout: 90_000 }, // base in astro.config.mjs; astro dev syncs content at boot and compiles each page on its first request',
      ],
      open: '"/docs"',
      gitignore: "/reports/\ntest-results/\n",
      notes: [],
    },
    {
      shape: "a SvelteKit site whose paths.base comes from the environment",
      files: {
        "package.json": json({
          type: "module",
          scripts: { dev: "vite dev", build: "vite build" },
          devDependencies: { "@sveltejs/kit": "^2.5.0", "@playwright/test": "1.38.0", vite: "^5.0.3" },
        }),
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "svelte.config.js":
          "import adapter from '@sveltejs/adapter-static';\n\nexport default {\n  kit: {\n    adapter: adapter(),\n    paths: { base: process.argv.includes('dev') ? '' : process.env.BASE_PATH }\n  }\n};\n",
      },
      app: ".",
      detected: [
        'framework: SvelteKit 2 (@sveltejs/kit "^2.5.0" in package.json, svelte.config.js)',
        `start: npx vite dev ${viteFlags} (the dev script \`vite dev\`, its tool run by npx from node_modules/.bin; Vite takes the port as a flag)`,
        "base path: unknown (paths.base in svelte.config.js is `process.argv.includes('dev') ? '' : process.env.BASE_PATH`, which init cannot read; ready.path / assumes none)",
        "ready: GET / within the harness's default timeout (SvelteKit has no long first compile)",
        "app root: . (the repository's root)",
      ],
      config: [
        "    // paths.base in svelte.config.js is `process.argv.includes('dev') ? '' : process.env.BASE_PATH`, which init cannot read: set ready.path and the example's app.open() to the path the app is served under.",
        '    ready: { path: "/" },',
      ],
      open: "",
      gitignore: "/reports/\ntest-results/\n",
      notes: [
        "paths.base in svelte.config.js is `process.argv.includes('dev') ? '' : process.env.BASE_PATH`, which init cannot read: set app.ready.path in scenarios.config.ts and the example's app.open() to the path the app is served under.",
      ],
    },
    {
      shape: "a Nuxt app with an app.baseURL",
      files: {
        "package.json": json({
          type: "module",
          scripts: { dev: "nuxt dev", build: "nuxt build" },
          dependencies: { nuxt: "^3.13.0", vue: "latest" },
        }),
        "nuxt.config.ts": "export default defineNuxtConfig({\n  devtools: { enabled: true },\n  app: { baseURL: '/portal/' },\n});\n",
      },
      app: ".",
      detected: [
        'framework: Nuxt 3 (nuxt "^3.13.0" in package.json, nuxt.config.ts)',
        "start: npx nuxt dev --host 127.0.0.1 --port {port} (the dev script `nuxt dev`, its tool run by npx from node_modules/.bin; nuxt dev takes the port as a flag)",
        "base path: /portal/ (app.baseURL in nuxt.config.ts)",
        "ready: GET /portal/ within 90s, each test within 120s (nuxt dev builds the app and each page on first request)",
        "app root: . (the repository's root)",
      ],
      config: [
        ...compiles("nuxt dev builds the app and each page on first request"),
        '    start: "npx nuxt dev --host 127.0.0.1 --port {port}", // the dev script `nuxt dev`, its tool run by npx from node_modules/.bin; nuxt dev takes the port as a flag',
        '    ready: { path: "/portal/", timeout: 90_000 }, // app.baseURL in nuxt.config.ts; nuxt dev builds the app and each page on first request',
      ],
      open: '"/portal/"',
      gitignore: "/reports/\ntest-results/\n",
      notes: [],
    },
    {
      shape: "a React Router app with a basename",
      files: {
        "package.json": json({
          type: "module",
          scripts: { dev: "react-router dev", build: "react-router build" },
          devDependencies: { "@react-router/dev": "^7.1.0", vite: "^6.0.0" },
        }),
        "react-router.config.ts":
          'import type { Config } from "@react-router/dev/config";\n\nexport default {\n  ssr: true,\n  basename: "/rr",\n} satisfies Config;\n',
      },
      app: ".",
      detected: [
        'framework: React Router 7 (@react-router/dev "^7.1.0" in package.json, react-router.config.ts)',
        `start: npx react-router dev ${viteFlags} (the dev script \`react-router dev\`, its tool run by npx from node_modules/.bin; react-router dev takes the port as a flag)`,
        "base path: /rr (basename in react-router.config.ts)",
        "ready: GET /rr within the harness's default timeout (React Router has no long first compile)",
        "app root: . (the repository's root)",
      ],
      config: [
        `    start: "npx react-router dev ${viteFlags}", // the dev script \`react-router dev\`, its tool run by npx from node_modules/.bin; react-router dev takes the port as a flag`,
        '    ready: { path: "/rr" }, // basename in react-router.config.ts',
      ],
      open: '"/rr"',
      gitignore: "/reports/\ntest-results/\n",
      notes: [],
    },
    {
      shape: "a Remix app on Vite with the plugin's basename",
      files: {
        "package.json": json({
          type: "module",
          scripts: { dev: "remix vite:dev" },
          devDependencies: { "@remix-run/dev": "^2.15.0", vite: "^5.4.0" },
        }),
        "vite.config.ts":
          'import { vitePlugin as remix } from "@remix-run/dev";\nimport { defineConfig } from "vite";\n\nexport default defineConfig({ plugins: [remix({ basename: "/shop/" })] });\n',
      },
      app: ".",
      detected: [
        'framework: Remix 2 (@remix-run/dev "^2.15.0" in package.json)',
        `start: npx remix vite:dev ${viteFlags} (the dev script \`remix vite:dev\`, its tool run by npx from node_modules/.bin; remix vite:dev takes the port as a flag)`,
        "base path: /shop/ (basename in vite.config.ts)",
        "ready: GET /shop/ within the harness's default timeout (Remix has no long first compile)",
        "app root: . (the repository's root)",
      ],
      config: ['    ready: { path: "/shop/" }, // basename in vite.config.ts'],
      open: '"/shop/"',
      gitignore: "/reports/\ntest-results/\n",
      notes: [],
    },
    sdkRow(
      "an app on the openai SDK 4, which reads OPENAI_BASE_URL",
      nodeApp({ express: "^4.21.0", openai: "^4.52.0" }),
      [
        ...nodeStart,
        'model provider: openai ("^4.52.0" in package.json)',
        "provider: OPENAI_BASE_URL, OPENAI_API_KEY (openai reads OPENAI_BASE_URL (from 4.21.0 on) and OPENAI_API_KEY)",
      ],
      [
        '    provider: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" }, // openai reads OPENAI_BASE_URL (from 4.21.0 on) and OPENAI_API_KEY',
      ],
      "openai-chat",
    ),
    sdkRow(
      "an app on an openai SDK older than 4.21, which reads no base URL variable",
      nodeApp({ openai: "4.20.1" }),
      [
        ...nodeStart,
        'model provider: openai ("4.20.1" in package.json)',
        "provider: OPENAI_API_KEY (openai needs OPENAI_API_KEY before it sends; the replay agent never checks it)",
        'route: true (openai before 4.21.0 ("4.20.1" in package.json) reads no base URL variable and calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent)',
      ],
      [
        '    provider: { OPENAI_API_KEY: "replay" }, // openai needs OPENAI_API_KEY before it sends; the replay agent never checks it',
        route(
          'openai before 4.21.0 ("4.20.1" in package.json) reads no base URL variable and calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent',
        ),
      ],
      "openai-chat",
    ),
    sdkRow(
      "an app on the Anthropic SDK",
      nodeApp({ "@anthropic-ai/sdk": "^0.39.0" }),
      [
        ...nodeStart,
        'model provider: @anthropic-ai/sdk ("^0.39.0" in package.json)',
        "provider: ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY (@anthropic-ai/sdk reads ANTHROPIC_BASE_URL (from 0.11.0 on; it adds /v1 itself) and ANTHROPIC_API_KEY)",
      ],
      [
        '    provider: { ANTHROPIC_BASE_URL: "{replay}", ANTHROPIC_API_KEY: "replay" }, // @anthropic-ai/sdk reads ANTHROPIC_BASE_URL (from 0.11.0 on; it adds /v1 itself) and ANTHROPIC_API_KEY',
      ],
      "anthropic-messages",
    ),
    sdkRow(
      "an AI SDK 4 app on @ai-sdk/openai 1.x, which calls Chat Completions at a fixed URL",
      nodeApp({ ai: "^4.3.0", "@ai-sdk/openai": "^1.3.22" }),
      [
        ...nodeStart,
        'model provider: @ai-sdk/openai ("^1.3.22" in package.json)',
        "provider: OPENAI_API_KEY (@ai-sdk/openai needs OPENAI_API_KEY before it sends; the replay agent never checks it)",
        'route: true (@ai-sdk/openai before 2.0.42 ("^1.3.22" in package.json) reads no base URL variable and calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent)',
      ],
      [
        '    provider: { OPENAI_API_KEY: "replay" }, // @ai-sdk/openai needs OPENAI_API_KEY before it sends; the replay agent never checks it',
        route(
          '@ai-sdk/openai before 2.0.42 ("^1.3.22" in package.json) reads no base URL variable and calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent',
        ),
      ],
      "openai-chat",
    ),
    sdkRow(
      "an AI SDK 6 app on @ai-sdk/openai 3, whose default model is a Responses one",
      nodeApp({ ai: "^6.0.0", "@ai-sdk/openai": "^3.0.0" }),
      [
        ...nodeStart,
        'model provider: @ai-sdk/openai ("^3.0.0" in package.json)',
        "provider: OPENAI_BASE_URL, OPENAI_API_KEY (@ai-sdk/openai reads OPENAI_BASE_URL (from 2.0.42 on) and OPENAI_API_KEY)",
      ],
      [
        '    provider: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" }, // @ai-sdk/openai reads OPENAI_BASE_URL (from 2.0.42 on) and OPENAI_API_KEY',
      ],
      "openai-responses",
    ),
    sdkRow(
      "an AI SDK app on @ai-sdk/anthropic 1.x, whose URL is fixed in its code",
      nodeApp({ ai: "^4.3.0", "@ai-sdk/anthropic": "^1.2.12" }),
      [
        ...nodeStart,
        'model provider: @ai-sdk/anthropic ("^1.2.12" in package.json)',
        "provider: ANTHROPIC_API_KEY (@ai-sdk/anthropic needs ANTHROPIC_API_KEY before it sends; the replay agent never checks it)",
        'route: true (@ai-sdk/anthropic before 2.0.35 ("^1.2.12" in package.json) reads no base URL variable and calls https://api.anthropic.com/v1 unless its code says otherwise: the route sends api.anthropic.com to the replay agent)',
      ],
      [
        '    provider: { ANTHROPIC_API_KEY: "replay" }, // @ai-sdk/anthropic needs ANTHROPIC_API_KEY before it sends; the replay agent never checks it',
        route(
          '@ai-sdk/anthropic before 2.0.35 ("^1.2.12" in package.json) reads no base URL variable and calls https://api.anthropic.com/v1 unless its code says otherwise: the route sends api.anthropic.com to the replay agent',
        ),
      ],
      "anthropic-messages",
    ),
    sdkRow(
      "an app whose @ai-sdk/anthropic comes from a pnpm catalog, installed at 3.0.139",
      {
        ...nodeApp({ "@ai-sdk/anthropic": "catalog:" }),
        "node_modules/@ai-sdk/anthropic/package.json": json({ name: "@ai-sdk/anthropic", version: "3.0.139" }),
      },
      [
        ...nodeStart,
        "model provider: @ai-sdk/anthropic (3.0.139 in node_modules)",
        "provider: ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY (@ai-sdk/anthropic reads ANTHROPIC_BASE_URL (from 2.0.35 on; its base URL ends with /v1) and ANTHROPIC_API_KEY)",
      ],
      [
        '    provider: { ANTHROPIC_BASE_URL: "{replay}/v1", ANTHROPIC_API_KEY: "replay" }, // @ai-sdk/anthropic reads ANTHROPIC_BASE_URL (from 2.0.35 on; its base URL ends with /v1) and ANTHROPIC_API_KEY',
      ],
      "anthropic-messages",
    ),
    sdkRow(
      "an app whose openai version init cannot tell, which is routed whatever it is",
      nodeApp({ openai: "workspace:*" }),
      [
        ...nodeStart,
        'model provider: openai ("workspace:*" in package.json)',
        "provider: OPENAI_API_KEY (openai needs OPENAI_API_KEY before it sends; the replay agent never checks it)",
        `route: true (init cannot tell openai's version ("workspace:*" in package.json), and before 4.21.0 it reads no base URL variable and calls https://api.openai.com/v1: the route sends api.openai.com to the replay agent)`,
      ],
      [
        '    provider: { OPENAI_API_KEY: "replay" }, // openai needs OPENAI_API_KEY before it sends; the replay agent never checks it',
        route(
          `init cannot tell openai's version ("workspace:*" in package.json), and before 4.21.0 it reads no base URL variable and calls https://api.openai.com/v1: the route sends api.openai.com to the replay agent`,
        ),
      ],
      "openai-chat",
    ),
    sdkRow(
      "an AI SDK app on @ai-sdk/google, which reads no base URL variable",
      nodeApp({ ai: "^5.0.0", "@ai-sdk/google": "^2.0.0" }),
      [
        ...nodeStart,
        'model provider: @ai-sdk/google ("^2.0.0" in package.json)',
        "provider: GOOGLE_GENERATIVE_AI_API_KEY (@ai-sdk/google needs GOOGLE_GENERATIVE_AI_API_KEY before it sends; the replay agent never checks it)",
        "route: true (@ai-sdk/google reads no base URL variable and calls https://generativelanguage.googleapis.com/v1beta unless its code says otherwise: the route sends generativelanguage.googleapis.com to the replay agent)",
      ],
      [
        '    provider: { GOOGLE_GENERATIVE_AI_API_KEY: "replay" }, // @ai-sdk/google needs GOOGLE_GENERATIVE_AI_API_KEY before it sends; the replay agent never checks it',
        route(
          "@ai-sdk/google reads no base URL variable and calls https://generativelanguage.googleapis.com/v1beta unless its code says otherwise: the route sends generativelanguage.googleapis.com to the replay agent",
        ),
      ],
      "gemini",
    ),
    sdkRow(
      "an AI SDK app on @ai-sdk/amazon-bedrock",
      nodeApp({ "@ai-sdk/amazon-bedrock": "^3.0.0" }),
      [
        ...nodeStart,
        'model provider: @ai-sdk/amazon-bedrock ("^3.0.0" in package.json)',
        "provider: AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (@ai-sdk/amazon-bedrock needs AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY before it sends; the replay agent never checks them)",
        "route: true (@ai-sdk/amazon-bedrock calls https://bedrock-runtime.<region>.amazonaws.com unless its code says otherwise; only some versions read AWS_ENDPOINT_URL_BEDROCK_RUNTIME (3.0.131 on in 3.x, 4.0.176 on in 4.x, 5.0.82 on in 5.x): the route sends bedrock-runtime.*.amazonaws.com, bedrock-runtime-fips.*.amazonaws.com to the replay agent)",
      ],
      [
        '    provider: { AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "replay", AWS_SECRET_ACCESS_KEY: "replay" }, // @ai-sdk/amazon-bedrock needs AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY before it sends; the replay agent never checks them',
        route(
          "@ai-sdk/amazon-bedrock calls https://bedrock-runtime.<region>.amazonaws.com unless its code says otherwise; only some versions read AWS_ENDPOINT_URL_BEDROCK_RUNTIME (3.0.131 on in 3.x, 4.0.176 on in 4.x, 5.0.82 on in 5.x): the route sends bedrock-runtime.*.amazonaws.com, bedrock-runtime-fips.*.amazonaws.com to the replay agent",
        ),
      ],
      "bedrock",
    ),
    sdkRow(
      "an AI SDK app on @ai-sdk/cohere",
      nodeApp({ "@ai-sdk/cohere": "^2.0.0" }),
      [
        ...nodeStart,
        'model provider: @ai-sdk/cohere ("^2.0.0" in package.json)',
        "provider: COHERE_API_KEY (@ai-sdk/cohere needs COHERE_API_KEY before it sends; the replay agent never checks it)",
        "route: true (@ai-sdk/cohere reads no base URL variable and calls https://api.cohere.com/v2 unless its code says otherwise: the route sends api.cohere.com, api.cohere.ai to the replay agent)",
      ],
      [
        '    provider: { COHERE_API_KEY: "replay" }, // @ai-sdk/cohere needs COHERE_API_KEY before it sends; the replay agent never checks it',
        route(
          "@ai-sdk/cohere reads no base URL variable and calls https://api.cohere.com/v2 unless its code says otherwise: the route sends api.cohere.com, api.cohere.ai to the replay agent",
        ),
      ],
      "cohere",
    ),
    sdkRow(
      "an app on Google's @google/genai",
      nodeApp({ "@google/genai": "^1.0.0" }),
      [
        ...nodeStart,
        'model provider: @google/genai ("^1.0.0" in package.json)',
        "provider: GOOGLE_GEMINI_BASE_URL, GOOGLE_API_KEY (@google/genai reads GOOGLE_GEMINI_BASE_URL (its Node build, from 0.10.0 on) and GOOGLE_API_KEY)",
      ],
      [
        '    provider: { GOOGLE_GEMINI_BASE_URL: "{replay}", GOOGLE_API_KEY: "replay" }, // @google/genai reads GOOGLE_GEMINI_BASE_URL (its Node build, from 0.10.0 on) and GOOGLE_API_KEY',
      ],
      "gemini",
    ),
    sdkRow(
      "an app on the ollama client, which the app must give its host",
      nodeApp({ ollama: "^0.5.0" }),
      [
        ...nodeStart,
        'model provider: ollama ("^0.5.0" in package.json)',
        "provider: OLLAMA_HOST (ollama reads no variable (0.1 to 0.6), and its default host, http://127.0.0.1:11434, is on the loopback, which the route leaves alone: pass `host: process.env.OLLAMA_HOST` to `new Ollama()`)",
      ],
      [
        '    provider: { OLLAMA_HOST: "{replay}" }, // ollama reads no variable (0.1 to 0.6), and its default host, http://127.0.0.1:11434, is on the loopback, which the route leaves alone: pass `host: process.env.OLLAMA_HOST` to `new Ollama()`',
      ],
      "ollama",
      [
        "ollama reads no variable (0.1 to 0.6), and its default host, http://127.0.0.1:11434, is on the loopback, which the route leaves alone: pass `host: process.env.OLLAMA_HOST` to `new Ollama()`, so that the replay agent answers it.",
      ],
    ),
    sdkRow(
      "an app on the AWS SDK's Bedrock Runtime client, which speaks HTTP/2",
      nodeApp({ "@aws-sdk/client-bedrock-runtime": "^3.700.0" }),
      [
        ...nodeStart,
        'model provider: @aws-sdk/client-bedrock-runtime ("^3.700.0" in package.json)',
        "provider: AWS_ENDPOINT_URL_BEDROCK_RUNTIME, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (@aws-sdk/client-bedrock-runtime reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME (from 3.428.0 on), AWS_REGION and the credentials (never checked))",
      ],
      [
        '    provider: { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "{replay}", AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "replay", AWS_SECRET_ACCESS_KEY: "replay" }, // @aws-sdk/client-bedrock-runtime reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME (from 3.428.0 on), AWS_REGION and the credentials (never checked)',
      ],
      "bedrock",
    ),
    sdkRow(
      "an app on Cohere's cohere-ai",
      nodeApp({ "cohere-ai": "^7.17.0" }),
      [
        ...nodeStart,
        'model provider: cohere-ai ("^7.17.0" in package.json)',
        "provider: CO_API_KEY (cohere-ai needs CO_API_KEY before it sends; the replay agent never checks it)",
        "route: true (cohere-ai reads no base URL variable and calls https://api.cohere.com unless its code says otherwise: the route sends api.cohere.com, api.cohere.ai to the replay agent)",
      ],
      [
        '    provider: { CO_API_KEY: "replay" }, // cohere-ai needs CO_API_KEY before it sends; the replay agent never checks it',
        route(
          "cohere-ai reads no base URL variable and calls https://api.cohere.com unless its code says otherwise: the route sends api.cohere.com, api.cohere.ai to the replay agent",
        ),
      ],
      "cohere",
    ),
    sdkRow(
      "a LangChain app on @langchain/openai 0.x",
      nodeApp({ langchain: "^0.3.0", "@langchain/openai": "^0.3.0" }),
      [
        ...nodeStart,
        'model provider: @langchain/openai ("^0.3.0" in package.json)',
        "provider: OPENAI_API_KEY (@langchain/openai needs OPENAI_API_KEY before it sends; the replay agent never checks it)",
        'route: true (@langchain/openai before 1.5.6 ("^0.3.0" in package.json) reads no base URL variable and calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent)',
      ],
      [
        '    provider: { OPENAI_API_KEY: "replay" }, // @langchain/openai needs OPENAI_API_KEY before it sends; the replay agent never checks it',
        route(
          '@langchain/openai before 1.5.6 ("^0.3.0" in package.json) reads no base URL variable and calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent',
        ),
      ],
      "openai-chat",
    ),
    sdkRow(
      "a LangChain app on @langchain/anthropic 1.5",
      nodeApp({ "@langchain/anthropic": "^1.5.4" }),
      [
        ...nodeStart,
        'model provider: @langchain/anthropic ("^1.5.4" in package.json)',
        "provider: ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY (@langchain/anthropic reads ANTHROPIC_BASE_URL (from 1.5.4 on) and ANTHROPIC_API_KEY)",
      ],
      [
        '    provider: { ANTHROPIC_BASE_URL: "{replay}", ANTHROPIC_API_KEY: "replay" }, // @langchain/anthropic reads ANTHROPIC_BASE_URL (from 1.5.4 on) and ANTHROPIC_API_KEY',
      ],
      "anthropic-messages",
    ),
    sdkRow(
      "a LangChain app on @langchain/google-genai",
      nodeApp({ "@langchain/google-genai": "^2.0.0" }),
      [
        ...nodeStart,
        'model provider: @langchain/google-genai ("^2.0.0" in package.json)',
        "provider: GOOGLE_API_KEY (@langchain/google-genai needs GOOGLE_API_KEY before it sends; the replay agent never checks it)",
        "route: true (@langchain/google-genai reads no base URL variable and calls https://generativelanguage.googleapis.com unless its code says otherwise: the route sends generativelanguage.googleapis.com to the replay agent)",
      ],
      [
        '    provider: { GOOGLE_API_KEY: "replay" }, // @langchain/google-genai needs GOOGLE_API_KEY before it sends; the replay agent never checks it',
        route(
          "@langchain/google-genai reads no base URL variable and calls https://generativelanguage.googleapis.com unless its code says otherwise: the route sends generativelanguage.googleapis.com to the replay agent",
        ),
      ],
      "gemini",
    ),
    sdkRow(
      "a LangChain app on @langchain/ollama 0.x, older than its OLLAMA_BASE_URL",
      nodeApp({ "@langchain/ollama": "^0.2.0" }),
      [
        ...nodeStart,
        'model provider: @langchain/ollama ("^0.2.0" in package.json)',
        "provider: OLLAMA_BASE_URL (@langchain/ollama reads OLLAMA_BASE_URL (from 1.1.0 on); the route cannot reach it: its default host, http://127.0.0.1:11434, is on the loopback, which the route leaves alone)",
      ],
      [
        '    provider: { OLLAMA_BASE_URL: "{replay}" }, // @langchain/ollama reads OLLAMA_BASE_URL (from 1.1.0 on); the route cannot reach it: its default host, http://127.0.0.1:11434, is on the loopback, which the route leaves alone',
      ],
      "ollama",
      [
        '@langchain/ollama reads OLLAMA_BASE_URL only from 1.1.0 on, and "^0.2.0" in package.json allows an older one: make sure the app runs 1.1.0 or later, or its calls never reach the replay agent.',
      ],
    ),
    sdkRow(
      "a LangChain app on @langchain/aws",
      nodeApp({ "@langchain/aws": "^1.0.0" }),
      [
        ...nodeStart,
        'model provider: @langchain/aws ("^1.0.0" in package.json)',
        "provider: AWS_ENDPOINT_URL_BEDROCK_RUNTIME, AWS_DEFAULT_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (@langchain/aws reads AWS_DEFAULT_REGION, and its @aws-sdk/client-bedrock-runtime (3.428.0 on) AWS_ENDPOINT_URL_BEDROCK_RUNTIME and the credentials)",
      ],
      [
        '    provider: { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "{replay}", AWS_DEFAULT_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "replay", AWS_SECRET_ACCESS_KEY: "replay" }, // @langchain/aws reads AWS_DEFAULT_REGION, and its @aws-sdk/client-bedrock-runtime (3.428.0 on) AWS_ENDPOINT_URL_BEDROCK_RUNTIME and the credentials',
      ],
      "bedrock",
    ),
    sdkRow(
      "an app with several provider SDKs, the first pointed at the replay agent and the others named",
      {
        ...nodeApp({ "@anthropic-ai/sdk": "^0.39.0", openai: "^4.52.0" }),
        "requirements.txt": "ollama\n",
      },
      [
        ...nodeStart,
        'model provider: @anthropic-ai/sdk ("^0.39.0" in package.json); also openai (package.json), ollama (Python, requirements.txt)',
        "provider: ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY (@anthropic-ai/sdk reads ANTHROPIC_BASE_URL (from 0.11.0 on; it adds /v1 itself) and ANTHROPIC_API_KEY)",
      ],
      [
        '    // @anthropic-ai/sdk is the first model provider SDK the app lists; these lines leave openai (package.json), ollama (Python, requirements.txt) alone. A test that calls several names a transcript for each (test.use({ transcript: { chat: "chat.ndjson", title: "title.ndjson" } })) and points each SDK at its own agent with {replay.<name>} in provider (docs/config.md#provider).',
        '    provider: { ANTHROPIC_BASE_URL: "{replay}", ANTHROPIC_API_KEY: "replay" }, // @anthropic-ai/sdk reads ANTHROPIC_BASE_URL (from 0.11.0 on; it adds /v1 itself) and ANTHROPIC_API_KEY',
      ],
      "anthropic-messages",
    ),
    sdkRow(
      "a Python app on openai 1.x, which reads OPENAI_BASE_URL",
      pythonApp("requirements.txt", "fastapi==0.115.0\nopenai>=1.40,<2  # the chat\nuvicorn[standard]\n"),
      [
        ...pythonStart,
        'model provider: openai (Python) (">=1.40,<2" in requirements.txt)',
        "provider: OPENAI_BASE_URL, OPENAI_API_KEY (openai (Python) reads OPENAI_BASE_URL (from 1.3.0 on) and OPENAI_API_KEY)",
      ],
      [
        '    provider: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" }, // openai (Python) reads OPENAI_BASE_URL (from 1.3.0 on) and OPENAI_API_KEY',
      ],
      "openai-chat",
    ),
    sdkRow(
      "a Python app pinned to openai 0.28",
      pythonApp("requirements.txt", "openai==0.28.1\n"),
      [
        ...pythonStart,
        'model provider: openai (Python) ("==0.28.1" in requirements.txt)',
        "provider: OPENAI_API_KEY (openai (Python) needs OPENAI_API_KEY before it sends; the replay agent never checks it)",
        'route: true (openai (Python) before 1.3.0 ("==0.28.1" in requirements.txt) reads no base URL variable and calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent)',
      ],
      [
        '    provider: { OPENAI_API_KEY: "replay" }, // openai (Python) needs OPENAI_API_KEY before it sends; the replay agent never checks it',
        route(
          'openai (Python) before 1.3.0 ("==0.28.1" in requirements.txt) reads no base URL variable and calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent',
        ),
      ],
      "openai-chat",
    ),
    sdkRow(
      "a Python app listing anthropic in pyproject.toml's dependencies",
      pythonApp("pyproject.toml", '[project]\nname = "chat"\ndependencies = [\n  "anthropic>=0.40",\n  "fastapi",\n]\n'),
      [
        ...pythonStart,
        'model provider: anthropic (Python) (">=0.40" in pyproject.toml)',
        "provider: ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY (anthropic (Python) reads ANTHROPIC_BASE_URL (from 0.7.0 on) and ANTHROPIC_API_KEY)",
      ],
      [
        '    provider: { ANTHROPIC_BASE_URL: "{replay}", ANTHROPIC_API_KEY: "replay" }, // anthropic (Python) reads ANTHROPIC_BASE_URL (from 0.7.0 on) and ANTHROPIC_API_KEY',
      ],
      "anthropic-messages",
    ),
    sdkRow(
      "a Python app on google-genai",
      pythonApp("requirements.txt", "google-genai\n"),
      [
        ...pythonStart,
        "model provider: google-genai (Python) (unpinned in requirements.txt)",
        "provider: GOOGLE_API_KEY (google-genai (Python) needs GOOGLE_API_KEY before it sends; the replay agent never checks it)",
        "route: true (Python libraries differ in the base URL variable they read, and google-genai (Python) calls https://generativelanguage.googleapis.com unless its code says otherwise: the route sends generativelanguage.googleapis.com to the replay agent)",
      ],
      [
        '    provider: { GOOGLE_API_KEY: "replay" }, // google-genai (Python) needs GOOGLE_API_KEY before it sends; the replay agent never checks it',
        route(
          "Python libraries differ in the base URL variable they read, and google-genai (Python) calls https://generativelanguage.googleapis.com unless its code says otherwise: the route sends generativelanguage.googleapis.com to the replay agent",
        ),
      ],
      "gemini",
    ),
    sdkRow(
      "a Poetry app on ollama",
      pythonApp("pyproject.toml", '[tool.poetry.dependencies]\npython = "^3.11"\nollama = "^0.4"\n'),
      [
        ...pythonStart,
        'model provider: ollama (Python) ("^0.4" in pyproject.toml)',
        "provider: OLLAMA_HOST (ollama (Python) reads OLLAMA_HOST when the code gives no host)",
      ],
      ['    provider: { OLLAMA_HOST: "{replay}" }, // ollama (Python) reads OLLAMA_HOST when the code gives no host'],
      "ollama",
    ),
    sdkRow(
      "a Python app on boto3",
      pythonApp("requirements.txt", "boto3==1.35.0\n"),
      [
        ...pythonStart,
        'model provider: boto3 (Python) ("==1.35.0" in requirements.txt)',
        "provider: AWS_ENDPOINT_URL_BEDROCK_RUNTIME, AWS_DEFAULT_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (boto3 (Python) reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME (from 1.28 on), AWS_DEFAULT_REGION and the credentials (never checked))",
      ],
      [
        '    provider: { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "{replay}", AWS_DEFAULT_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "replay", AWS_SECRET_ACCESS_KEY: "replay" }, // boto3 (Python) reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME (from 1.28 on), AWS_DEFAULT_REGION and the credentials (never checked)',
      ],
      "bedrock",
    ),
    sdkRow(
      "a Python app on cohere",
      pythonApp("requirements.txt", "cohere>=5\n"),
      [
        ...pythonStart,
        'model provider: cohere (Python) (">=5" in requirements.txt)',
        "provider: CO_API_KEY (cohere (Python) needs CO_API_KEY before it sends; the replay agent never checks it)",
        "route: true (Python libraries differ in the base URL variable they read, and cohere (Python) calls https://api.cohere.com unless its code says otherwise: the route sends api.cohere.com, api.cohere.ai to the replay agent)",
      ],
      [
        '    provider: { CO_API_KEY: "replay" }, // cohere (Python) needs CO_API_KEY before it sends; the replay agent never checks it',
        route(
          "Python libraries differ in the base URL variable they read, and cohere (Python) calls https://api.cohere.com unless its code says otherwise: the route sends api.cohere.com, api.cohere.ai to the replay agent",
        ),
      ],
      "cohere",
    ),
    sdkRow(
      "a Python app on langchain-openai",
      pythonApp("requirements.txt", "langchain-openai\n"),
      [
        ...pythonStart,
        "model provider: langchain-openai (Python) (unpinned in requirements.txt)",
        "provider: OPENAI_API_KEY (langchain-openai (Python) needs OPENAI_API_KEY before it sends; the replay agent never checks it)",
        "route: true (Python libraries differ in the base URL variable they read, and langchain-openai (Python) calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent)",
      ],
      [
        '    provider: { OPENAI_API_KEY: "replay" }, // langchain-openai (Python) needs OPENAI_API_KEY before it sends; the replay agent never checks it',
        route(
          "Python libraries differ in the base URL variable they read, and langchain-openai (Python) calls https://api.openai.com/v1 unless its code says otherwise: the route sends api.openai.com to the replay agent",
        ),
      ],
      "openai-chat",
    ),
    sdkRow(
      "a Python app on langchain_anthropic, its name as pip compares it",
      pythonApp("requirements.txt", "Langchain_Anthropic~=0.3\n"),
      [
        ...pythonStart,
        'model provider: langchain-anthropic (Python) ("~=0.3" in requirements.txt)',
        "provider: ANTHROPIC_API_KEY (langchain-anthropic (Python) needs ANTHROPIC_API_KEY before it sends; the replay agent never checks it)",
        "route: true (Python libraries differ in the base URL variable they read, and langchain-anthropic (Python) calls https://api.anthropic.com unless its code says otherwise: the route sends api.anthropic.com to the replay agent)",
      ],
      [
        '    provider: { ANTHROPIC_API_KEY: "replay" }, // langchain-anthropic (Python) needs ANTHROPIC_API_KEY before it sends; the replay agent never checks it',
        route(
          "Python libraries differ in the base URL variable they read, and langchain-anthropic (Python) calls https://api.anthropic.com unless its code says otherwise: the route sends api.anthropic.com to the replay agent",
        ),
      ],
      "anthropic-messages",
    ),
    sdkRow(
      "a Python app on langchain-google-genai, in a uv dependency group",
      pythonApp("pyproject.toml", '[project]\nname = "chat"\n\n[dependency-groups]\nllm = ["langchain-google-genai>=2"]\n'),
      [
        ...pythonStart,
        'model provider: langchain-google-genai (Python) (">=2" in pyproject.toml)',
        "provider: GOOGLE_API_KEY (langchain-google-genai (Python) needs GOOGLE_API_KEY before it sends; the replay agent never checks it)",
        "route: true (Python libraries differ in the base URL variable they read, and langchain-google-genai (Python) calls https://generativelanguage.googleapis.com unless its code says otherwise: the route sends generativelanguage.googleapis.com to the replay agent)",
      ],
      [
        '    provider: { GOOGLE_API_KEY: "replay" }, // langchain-google-genai (Python) needs GOOGLE_API_KEY before it sends; the replay agent never checks it',
        route(
          "Python libraries differ in the base URL variable they read, and langchain-google-genai (Python) calls https://generativelanguage.googleapis.com unless its code says otherwise: the route sends generativelanguage.googleapis.com to the replay agent",
        ),
      ],
      "gemini",
    ),
    sdkRow(
      "a Python app on langchain-ollama",
      pythonApp("requirements.txt", "langchain-ollama\n"),
      [
        ...pythonStart,
        "model provider: langchain-ollama (Python) (unpinned in requirements.txt)",
        "provider: OLLAMA_HOST (langchain-ollama (Python) passes no host to its ollama client, which then reads OLLAMA_HOST)",
      ],
      [
        '    provider: { OLLAMA_HOST: "{replay}" }, // langchain-ollama (Python) passes no host to its ollama client, which then reads OLLAMA_HOST',
      ],
      "ollama",
    ),
    sdkRow(
      "a Python app on langchain-aws",
      pythonApp("requirements.txt", "langchain-aws\n"),
      [
        ...pythonStart,
        "model provider: langchain-aws (Python) (unpinned in requirements.txt)",
        "provider: AWS_ENDPOINT_URL_BEDROCK_RUNTIME, AWS_DEFAULT_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (langchain-aws (Python) calls Bedrock through boto3, which reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME (from 1.28 on), AWS_DEFAULT_REGION and the credentials)",
      ],
      [
        '    provider: { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "{replay}", AWS_DEFAULT_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "replay", AWS_SECRET_ACCESS_KEY: "replay" }, // langchain-aws (Python) calls Bedrock through boto3, which reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME (from 1.28 on), AWS_DEFAULT_REGION and the credentials',
      ],
      "bedrock",
    ),
    sdkRow(
      "a Python app on langchain-cohere",
      pythonApp("requirements.txt", "langchain-cohere\n"),
      [
        ...pythonStart,
        "model provider: langchain-cohere (Python) (unpinned in requirements.txt)",
        "provider: CO_API_KEY (langchain-cohere (Python) needs CO_API_KEY before it sends; the replay agent never checks it)",
        "route: true (Python libraries differ in the base URL variable they read, and langchain-cohere (Python) calls https://api.cohere.com unless its code says otherwise: the route sends api.cohere.com, api.cohere.ai to the replay agent)",
      ],
      [
        '    provider: { CO_API_KEY: "replay" }, // langchain-cohere (Python) needs CO_API_KEY before it sends; the replay agent never checks it',
        route(
          "Python libraries differ in the base URL variable they read, and langchain-cohere (Python) calls https://api.cohere.com unless its code says otherwise: the route sends api.cohere.com, api.cohere.ai to the replay agent",
        ),
      ],
      "cohere",
    ),
    sdkRow(
      "a Python app that calls OpenAI's URL with urllib and lists no SDK",
      pythonApp("app.py", pythonUrllib("https://api.openai.com/v1/chat/completions", "OPENAI_API_KEY")),
      [
        ...pythonStart,
        "model provider: api.openai.com (https://api.openai.com/v1/chat/completions in app.py)",
        "provider: OPENAI_API_KEY (app.py names OPENAI_API_KEY, which the app may need before it sends; the replay agent never checks it)",
        "route: true (app.py names https://api.openai.com/v1/chat/completions, which no variable changes: the route sends api.openai.com to the replay agent)",
      ],
      [
        '    provider: { OPENAI_API_KEY: "replay" }, // app.py names OPENAI_API_KEY, which the app may need before it sends; the replay agent never checks it',
        route(
          "app.py names https://api.openai.com/v1/chat/completions, which no variable changes: the route sends api.openai.com to the replay agent",
        ),
      ],
      "openai-chat",
    ),
    sdkRow(
      "a Python app whose requirements list openai but whose code calls OpenAI's URL with urllib",
      {
        ...pythonApp("requirements.txt", "openai>=1.40\n"),
        "app.py": pythonUrllib("https://api.openai.com/v1/chat/completions", "OPENAI_API_KEY"),
      },
      [
        ...pythonStart,
        "model provider: api.openai.com (https://api.openai.com/v1/chat/completions in app.py)",
        "provider: OPENAI_BASE_URL, OPENAI_API_KEY (openai (Python) reads OPENAI_BASE_URL (from 1.3.0 on) and OPENAI_API_KEY)",
        "route: true (app.py names https://api.openai.com/v1/chat/completions, which no variable changes: the route sends api.openai.com to the replay agent; the provider variables stay for openai (Python)'s own calls)",
      ],
      [
        '    provider: { OPENAI_BASE_URL: "{replay}/v1", OPENAI_API_KEY: "replay" }, // openai (Python) reads OPENAI_BASE_URL (from 1.3.0 on) and OPENAI_API_KEY',
        route(
          "app.py names https://api.openai.com/v1/chat/completions, which no variable changes: the route sends api.openai.com to the replay agent; the provider variables stay for openai (Python)'s own calls",
        ),
      ],
      "openai-chat",
    ),
    sdkRow(
      "a Node server that calls Anthropic's URL with https.request and lists openai, which the route leaves alone",
      nodeApp(
        { openai: "^4.52.0" },
        {
          "lib/claude.cjs":
            'const https = require("node:https");\n' +
            "module.exports = (body) =>\n" +
            '  https.request("https://api.anthropic.com/v1/messages", { method: "POST", headers: { "x-api-key": process.env.ANTHROPIC_API_KEY } });\n',
        },
      ),
      [
        ...nodeStart,
        "model provider: api.anthropic.com (https://api.anthropic.com/v1/messages in lib/claude.cjs); also openai (package.json)",
        "provider: ANTHROPIC_API_KEY (lib/claude.cjs names ANTHROPIC_API_KEY, which the app may need before it sends; the replay agent never checks it)",
        "route: true (lib/claude.cjs names https://api.anthropic.com/v1/messages, which no variable changes: the route sends api.anthropic.com to the replay agent)",
      ],
      [
        '    // lib/claude.cjs\'s call to api.anthropic.com is the first call to a provider the app\'s source names; these lines leave openai (package.json) alone. A test that calls several names a transcript for each (test.use({ transcript: { chat: "chat.ndjson", title: "title.ndjson" } })) and points each SDK at its own agent with {replay.<name>} in provider (docs/config.md#provider).',
        '    provider: { ANTHROPIC_API_KEY: "replay" }, // lib/claude.cjs names ANTHROPIC_API_KEY, which the app may need before it sends; the replay agent never checks it',
        route(
          "lib/claude.cjs names https://api.anthropic.com/v1/messages, which no variable changes: the route sends api.anthropic.com to the replay agent",
        ),
      ],
      "anthropic-messages",
    ),
    sdkRow(
      "a Node server that fetches OpenAI's Responses API by its URL",
      nodeApp(
        {},
        {
          "server.js":
            'app.listen(process.env.PORT);\nconst reply = () => fetch("https://api.openai.com/v1/responses", { method: "POST" });\n',
        },
      ),
      [
        ...nodeStart,
        "model provider: api.openai.com (https://api.openai.com/v1/responses in server.js)",
        "route: true (server.js names https://api.openai.com/v1/responses, which no variable changes: the route sends api.openai.com to the replay agent)",
      ],
      [
        route(
          "server.js names https://api.openai.com/v1/responses, which no variable changes: the route sends api.openai.com to the replay agent",
        ),
      ],
      "openai-responses",
    ),
  ])("writes the config of $shape", async ({ files, app, detected, config, open, gitignore, notes, transcript }) => {
    const repo = await folder(files);
    const dir = join(repo, app);

    const result = await initScenarios(dir, untried);

    expect(choices(result.detected)).toEqual(detected);
    const text = await read(dir, "scenarios.config.ts");
    expect(text.split("\n")).toEqual(expect.arrayContaining([...config]));
    expect(providerLines(text.split("\n"))).toEqual(providerLines(config));
    expect(/^ {4}host: /m.test(text)).toBe(detected.some((line) => line.startsWith("host: ")));
    expect(text.includes("timeout: 120_000")).toBe(config.some((line) => line.startsWith("  timeout: ")));
    const example = await read(dir, "scenarios/example.e2e.ts");
    expect(example).toContain(`  await app.open(${open});\n`);
    expect([...syntaxErrors(text, "scenarios.config.ts"), ...syntaxErrors(example, "example.e2e.ts")]).toEqual([]);
    expect(await read(repo, ".gitignore")).toBe(gitignore);
    expect(result.notes.filter((note) => note.includes("cannot read") || note.includes("replay agent"))).toEqual(notes);
    if (transcript === undefined) {
      expect(existsSync(join(dir, "scenarios/example.ndjson"))).toBe(false);
      expect(example).not.toContain("transcript");
      return;
    }
    // The transcript passes replay-agent check, and the example's second test plays it: the message typed into the first text box.
    const checked = await Effect.runPromise(readTranscript(join(dir, "scenarios/example.ndjson")));
    expect(checked.meta.provider).toBe(transcript);
    expect(result.written.slice(0, 3)).toEqual(["scenarios.config.ts", "scenarios/example.e2e.ts", "scenarios/example.ndjson"]);
    expect(result.detected.at(-1)).toBe("model: the default of replay-agent new (the app's source names no model id)");
    const sdk = detected.find((line) => line.startsWith("model provider: "))?.replace(/^model provider: (.+?) \((?!Python\)).*$/, "$1");
    expect(example.split("\n").slice(12, 20)).toEqual([
      `// example.ndjson, beside this file, answers the app's ${sdk} call to ${checked.meta.model} with the user message "Hello";`,
      "// its first line is the replay-agent new command that wrote it, to run again with the app's own model and message.",
      'test.describe("with the example transcript", () => {',
      '  test.use({ transcript: "./example.ndjson" });',
      "",
      "  // Sends the message as most chat pages take one: the first text box, then Enter. If the app takes it",
      "  // otherwise, change these steps: a transcript left unplayed fails the test, naming its first unplayed line.",
      '  test("the app shows the replayed reply", async ({ app, page }) => {',
    ]);
    expect(example).toContain(`    await app.open(${open});\n    const message = page.getByRole("textbox").first();\n`);
    expect(example).toContain('    await expect(page.getByText("Hello! This reply is replayed by the replay agent.")).toBeVisible();\n');
  });

  interface ServiceRow {
    readonly shape: string;
    readonly files: Readonly<Record<string, string>>;
    /** The lines init prints of the services, the prepare, the env and the processes beside the server. */
    readonly detected: ReadonlyArray<string>;
    /** The config's lines from after `install` to `host` or `ready`, then its env block. */
    readonly config: ReadonlyArray<string>;
    /** What init says it could not set up. */
    readonly notes: ReadonlyArray<string>;
  }
  /** A Next.js app's package.json with `more` in it, and scenario-prover among its dev dependencies. */
  const nextApp = (more: Readonly<Record<string, unknown>> = {}, dependencies: Readonly<Record<string, string>> = {}) =>
    json({
      scripts: { dev: "next dev", ...((more.scripts as object | undefined) ?? {}) },
      dependencies: { next: "^15.0.0", ...dependencies },
      devDependencies: { "scenario-prover": "^0.1.0" },
      ...Object.fromEntries(Object.entries(more).filter(([key]) => key !== "scripts")),
    });
  const nextStart =
    '    start: "npx next dev -p {port}", // the dev script `next dev`, its tool run by npx from node_modules/.bin; next dev takes the port as -p';
  const servicesComment =
    "    // Started fresh for each test, each with its own data folder and a free port; stopped and removed with the app.";
  const prismaSchema = (provider: string, more = "") =>
    `generator client {\n  provider = "prisma-client-js"\n}\n\ndatasource db {\n  provider = "${provider}"\n  url      = env("DATABASE_URL")${more}\n}\n\nmodel Chat {\n  id String @id\n}\n`;
  const prepared = "run in the app's folder once the services are ready";
  it.each<ServiceRow>([
    {
      shape: "a Prisma schema on PostgreSQL with its migrations",
      files: {
        "package.json": nextApp({}, { "@prisma/client": "^6.2.0" }),
        "prisma/schema.prisma": prismaSchema("postgresql", '\n  directUrl = env("DIRECT_URL")'),
        "prisma/migrations/20250101000000_init/migration.sql": 'CREATE TABLE "Chat" ("id" TEXT PRIMARY KEY);\n',
        "prisma/migrations/migration_lock.toml": 'provider = "postgresql"\n',
      },
      detected: [
        'services.postgres: postgres (provider = "postgresql" in prisma/schema.prisma)',
        "prepare: npx prisma migrate deploy (prisma/migrations holds the app's migrations, so each side's database gets that side's schema)",
        'env: DATABASE_URL: {postgres.url} (url = env("DATABASE_URL") in prisma/schema.prisma)',
        'env: DIRECT_URL: {postgres.url} (directUrl = env("DIRECT_URL") in prisma/schema.prisma)',
      ],
      config: [
        servicesComment,
        "    services: {",
        '      postgres: { kind: "postgres" }, // provider = "postgresql" in prisma/schema.prisma',
        "    },",
        `    prepare: "npx prisma migrate deploy", // prisma/migrations holds the app's migrations, so each side's database gets that side's schema; ${prepared}`,
        nextStart,
        "    env: {",
        '      DATABASE_URL: "{postgres.url}", // url = env("DATABASE_URL") in prisma/schema.prisma',
        '      DIRECT_URL: "{postgres.url}", // directUrl = env("DIRECT_URL") in prisma/schema.prisma',
        "    },",
      ],
      notes: [],
    },
    {
      shape: "a Prisma schema on MySQL at the path package.json names, without migrations",
      files: {
        "package.json": nextApp({ prisma: { schema: "db/schema.prisma" } }, { prisma: "^5.22.0" }),
        "db/schema.prisma": prismaSchema("mysql"),
      },
      detected: [
        'services.mysql: mysql (provider = "mysql" in db/schema.prisma)',
        "prepare: npx prisma db push --skip-generate (no migrations in db/migrations, so db push makes the tables from db/schema.prisma (--skip-generate: generating the client is the install's work, not each test's))",
        'env: DATABASE_URL: {mysql.url} (url = env("DATABASE_URL") in db/schema.prisma)',
      ],
      config: [
        servicesComment,
        "    services: {",
        '      mysql: { kind: "mysql" }, // provider = "mysql" in db/schema.prisma',
        "    },",
        `    prepare: "npx prisma db push --skip-generate", // no migrations in db/migrations, so db push makes the tables from db/schema.prisma (--skip-generate: generating the client is the install's work, not each test's); ${prepared}`,
        nextStart,
        "    env: {",
        '      DATABASE_URL: "{mysql.url}", // url = env("DATABASE_URL") in db/schema.prisma',
        "    },",
      ],
      notes: [],
    },
    {
      shape: "a Prisma 7 schema on SQLite, its URL in prisma.config.ts",
      files: {
        "package.json": nextApp({}, { prisma: "^7.0.0" }),
        "prisma/schema.prisma": 'datasource db {\n  provider = "sqlite"\n}\n',
        "prisma.config.ts":
          'import { defineConfig, env } from "prisma/config";\n\nexport default defineConfig({\n  schema: "prisma/schema.prisma",\n  datasource: { url: env("DATABASE_URL") },\n});\n',
      },
      detected: [
        "prepare: npx prisma db push (no migrations in prisma/migrations, so db push makes the tables from prisma/schema.prisma)",
        'env: DATABASE_URL: file:{home}/app.db (url: env("DATABASE_URL") in prisma.config.ts; SQLite needs no service: its file goes under {home}, the app\'s own folder, fresh for each test)',
      ],
      config: [
        `    prepare: "npx prisma db push", // no migrations in prisma/migrations, so db push makes the tables from prisma/schema.prisma; ${prepared}`,
        nextStart,
        "    env: {",
        '      DATABASE_URL: "file:{home}/app.db", // url: env("DATABASE_URL") in prisma.config.ts; SQLite needs no service: its file goes under {home}, the app\'s own folder, fresh for each test',
        "    },",
      ],
      notes: [],
    },
    {
      shape: "the Vercel AI chatbot template: Drizzle on PostgreSQL, its db:migrate script, and Redis in .env.example, with pnpm",
      files: {
        "package.json": nextApp(
          { scripts: { "db:migrate": "npx tsx lib/db/migrate.ts", "db:generate": "drizzle-kit generate" } },
          { "drizzle-orm": "^0.34.0", redis: "^5.0.0" },
        ),
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "drizzle.config.ts":
          "import { config } from 'dotenv';\nimport { defineConfig } from 'drizzle-kit';\n\nconfig({ path: '.env.local' });\n\nexport default defineConfig({\n  schema: './lib/db/schema.ts',\n  out: './lib/db/migrations',\n  dialect: 'postgresql',\n  dbCredentials: {\n    // biome-ignore lint: Forbidden non-null assertion.\n    url: process.env.POSTGRES_URL!,\n  },\n});\n",
        "lib/db/migrations/0000_init.sql": 'CREATE TABLE "Chat" ("id" uuid PRIMARY KEY);\n',
        ".env.example":
          "# Generate a random secret: https://generate-secret.vercel.app/32\nAUTH_SECRET=****\n\nPOSTGRES_URL=****\n\nREDIS_URL=****\n",
      },
      detected: [
        'services.postgres: postgres (dialect: "postgresql" in drizzle.config.ts; POSTGRES_URL in .env.example)',
        "services.redis: redis (REDIS_URL in .env.example)",
        "prepare: pnpm db:migrate (the db:migrate script `npx tsx lib/db/migrate.ts` runs the app's migrations)",
        "env: POSTGRES_URL: {postgres.url} (dbCredentials reads POSTGRES_URL in drizzle.config.ts)",
        "env: REDIS_URL: {redis.url} (REDIS_URL in .env.example)",
      ],
      config: [
        servicesComment,
        "    services: {",
        '      postgres: { kind: "postgres" }, // dialect: "postgresql" in drizzle.config.ts; POSTGRES_URL in .env.example',
        '      redis: { kind: "redis" }, // REDIS_URL in .env.example',
        "    },",
        `    prepare: "pnpm db:migrate", // the db:migrate script \`npx tsx lib/db/migrate.ts\` runs the app's migrations; ${prepared}`,
        nextStart,
        "    env: {",
        '      POSTGRES_URL: "{postgres.url}", // dbCredentials reads POSTGRES_URL in drizzle.config.ts',
        '      REDIS_URL: "{redis.url}", // REDIS_URL in .env.example',
        "    },",
      ],
      notes: [],
    },
    {
      shape: "Drizzle on MySQL with the migrations drizzle-kit wrote and a validated env",
      files: {
        "package.json": nextApp(),
        "drizzle.config.js":
          'import { env } from "./src/env.js";\n\nexport default {\n  schema: "./src/db/schema.js",\n  dialect: "mysql",\n  dbCredentials: { url: env.DATABASE_URL },\n};\n',
        "drizzle/0000_init.sql": "CREATE TABLE chat (id int PRIMARY KEY);\n",
        "drizzle/meta/_journal.json": "{}\n",
      },
      detected: [
        'services.mysql: mysql (dialect: "mysql" in drizzle.config.js)',
        "prepare: npx drizzle-kit migrate (drizzle (out in drizzle.config.js) holds the app's migrations, so each side's database gets that side's schema)",
        "env: DATABASE_URL: {mysql.url} (dbCredentials reads DATABASE_URL in drizzle.config.js)",
      ],
      config: [
        servicesComment,
        "    services: {",
        '      mysql: { kind: "mysql" }, // dialect: "mysql" in drizzle.config.js',
        "    },",
        `    prepare: "npx drizzle-kit migrate", // drizzle (out in drizzle.config.js) holds the app's migrations, so each side's database gets that side's schema; ${prepared}`,
        nextStart,
        "    env: {",
        '      DATABASE_URL: "{mysql.url}", // dbCredentials reads DATABASE_URL in drizzle.config.js',
        "    },",
      ],
      notes: [],
    },
    {
      shape: "a docker-compose.yml with PostgreSQL and Redis, DATABASE_URL in .env.example, and migrations init does not know",
      files: {
        "package.json": nextApp({}, { kysely: "^0.27.0", pg: "^8.0.0" }),
        "docker-compose.yml":
          'services:\n  db:\n    image: "postgres:16-alpine"\n    environment:\n      - POSTGRES_USER=app\n      - POSTGRES_DB=chats # the app\'s database\n    ports:\n      - "5432:5432"\n  cache:\n    image: redis:7\n  web:\n    build: .\nvolumes:\n  data:\n',
        ".env.example": "DATABASE_URL=postgresql://app:app@localhost:5432/chats\nCACHE_URL=redis://localhost:6379\n",
      },
      detected: [
        "services.db: postgres, database chats (service db (image postgres:16-alpine) in docker-compose.yml; DATABASE_URL in .env.example is a postgresql: URL; database: POSTGRES_DB in docker-compose.yml)",
        "services.cache: redis (service cache (image redis:7) in docker-compose.yml; CACHE_URL in .env.example is a redis: URL)",
        "env: DATABASE_URL: {db.url} (DATABASE_URL in .env.example is a postgresql: URL)",
        "env: CACHE_URL: {cache.url} (CACHE_URL in .env.example is a redis: URL)",
      ],
      config: [
        servicesComment,
        "    services: {",
        '      db: { kind: "postgres", database: "chats" }, // service db (image postgres:16-alpine) in docker-compose.yml; DATABASE_URL in .env.example is a postgresql: URL; database: POSTGRES_DB in docker-compose.yml',
        '      cache: { kind: "redis" }, // service cache (image redis:7) in docker-compose.yml; CACHE_URL in .env.example is a redis: URL',
        "    },",
        nextStart,
        "    env: {",
        '      DATABASE_URL: "{db.url}", // DATABASE_URL in .env.example is a postgresql: URL',
        '      CACHE_URL: "{cache.url}", // CACHE_URL in .env.example is a redis: URL',
        "    },",
      ],
      notes: [
        "init found no migration tool it knows (the app uses kysely), so it wrote no app.prepare: add the command that makes the app's tables at a side's commit (its migrations, or a SQL file) to app.prepare in scenarios.config.ts.",
      ],
    },
    {
      shape: "MongoDB through mongoose, which has no built-in kind, and a SQL Server schema",
      files: {
        "package.json": nextApp({}, { mongoose: "^8.0.0" }),
        ".env.local.example": "MONGODB_URI=mongodb://127.0.0.1:27017/chat\n",
        "prisma/schema.prisma": prismaSchema("sqlserver"),
      },
      detected: [],
      config: [
        "    // MongoDB (MONGODB_URI in .env.local.example is a mongodb: URL; mongoose in package.json) has no built-in service kind; where mongod is installed, a command service starts it, in services:",
        '    // mongo: { kind: "command", command: "mkdir -p {home}/mongo && mongod --dbpath {home}/mongo --bind_ip 127.0.0.1 --port {port}", ready: { log: /Waiting for connections/ }, url: "mongodb://127.0.0.1:{port}/app" },',
        '    // and in env: MONGODB_URI: "{mongo.url}"',
        nextStart,
      ],
      notes: [
        "MongoDB (MONGODB_URI in .env.local.example is a mongodb: URL; mongoose in package.json) has no built-in service kind, so init wrote no service for it: scenarios.config.ts holds a commented command service that starts mongod; install MongoDB's server and add it to app.services (docs/config.md).",
        'provider = "sqlserver" in prisma/schema.prisma: init has no service for sqlserver; add a command service that starts it to app.services, and its migrations to app.prepare (docs/config.md).',
      ],
    },
    {
      shape: "a worker script beside the dev server, which logs when it is ready",
      files: {
        "package.json": nextApp({ scripts: { "dev:worker": "tsx watch src/worker.ts" } }),
        "src/worker.ts": 'const queue = "chats";\nconsole.log(`worker ready: ${queue}`);\n',
      },
      detected: [
        "start.worker: npm run dev:worker (the dev:worker script `tsx watch src/worker.ts`; ready when it logs /worker ready:/, in src/worker.ts)",
      ],
      config: [
        "    // The browser opens the first; each process has its own port, readiness and log.",
        "    start: {",
        '      web: "npx next dev -p {port}", // the dev script `next dev`, its tool run by npx from node_modules/.bin; next dev takes the port as -p',
        '      worker: { command: "npm run dev:worker", ready: { log: /worker ready:/ } }, // the dev:worker script `tsx watch src/worker.ts`; src/worker.ts logs it once ready',
        "    },",
      ],
      notes: [],
    },
    {
      shape: "a dev script that starts the server and a worker through concurrently, named by its -n",
      files: {
        "package.json": json({
          scripts: { dev: 'concurrently -k -n api,jobs "npm:dev:api" "tsx watch src/jobs.ts"', "dev:api": "node server.js" },
          devDependencies: { "scenario-prover": "^0.1.0" },
        }),
        "server.js": "app.listen(process.env.PORT);\n",
        "src/jobs.ts": 'logger.info("jobs started");\n',
      },
      detected: [
        "start.jobs: npx tsx watch src/jobs.ts (started by the dev script through concurrently: `tsx watch src/jobs.ts`; ready when it logs /jobs started/, in src/jobs.ts)",
      ],
      config: [
        "    // The browser opens the first; each process has its own port, readiness and log.",
        "    start: {",
        '      api: "npm run dev:api", // the server the dev script starts through concurrently: the dev:api script `node server.js`; server.js reads the PORT environment variable',
        '      jobs: { command: "npx tsx watch src/jobs.ts", ready: { log: /jobs started/ } }, // started by the dev script through concurrently: `tsx watch src/jobs.ts`; src/jobs.ts logs it once ready',
        "    },",
      ],
      notes: [],
    },
    {
      shape: "a dev script that runs every dev:* script through concurrently, and a DATABASE_URL with no value",
      files: {
        "package.json": json({
          scripts: { dev: 'concurrently "npm:dev:*"', "dev:web": "node server.js", "dev:worker": "node worker.js" },
          devDependencies: { "scenario-prover": "^0.1.0" },
        }),
        ".env.example": "DATABASE_URL=\n",
      },
      detected: [],
      config: [
        '    // the dev script `concurrently "npm:dev:*"` runs several commands at once through concurrently, and init cannot tell which is the server or how each runs, so app.start runs them as one process; to give each its own readiness and its own log, write them as named processes, the server first: start: { web: "…", worker: "…" } (docs/config.md)',
        '    // Could not tell how the server gets its port (`concurrently "npm:dev:*"` is not a server init knows):',
        "    // it must listen on the PORT environment variable, or put {port} into this command.",
        '    start: "npm run dev",',
      ],
      notes: [
        'DATABASE_URL in .env.example: init cannot tell its database from its value or the app\'s ORM; add the service to app.services and DATABASE_URL: "{<service>.url}" to app.env (docs/config.md).',
        'In scenarios.config.ts, the dev script `concurrently "npm:dev:*"` runs several commands at once through concurrently, and init cannot tell which is the server or how each runs, so app.start runs them as one process; to give each its own readiness and its own log, write them as named processes, the server first: start: { web: "…", worker: "…" } (docs/config.md).',
      ],
    },
  ])("writes the services, prepare, env and processes of $shape", async ({ files, detected, config, notes }) => {
    const dir = await folder(files);

    const result = await initScenarios(dir, untried);

    expect(result.detected.filter((line) => /^(services\.|prepare: |env: |start\.)/.test(line))).toEqual(detected);
    const text = await read(dir, "scenarios.config.ts");
    const lines = text.split("\n");
    const env = lines.indexOf("    env: {");
    expect([
      ...lines.slice(
        lines.findIndex((line) => line.startsWith("    install: ")) + 1,
        lines.findIndex((line) => /^ {4}(host|ready): /.test(line)),
      ),
      ...(env === -1 ? [] : lines.slice(env, lines.indexOf("    },", env) + 1)),
    ]).toEqual(config);
    expect(syntaxErrors(text, "scenarios.config.ts")).toEqual([]);
    const usual = /^(Could not tell how the server gets its port|No "prove-scenario" script|@playwright\/test is not in package.json)/;
    expect(result.notes.filter((note) => !usual.test(note))).toEqual(notes);
  });

  it("asks, in the example transcript, for the model the app's source names, and says which it found when it names several", async () => {
    const files = (model: string) => ({
      "package.json": json({ scripts: { start: "node server.js" }, dependencies: { "@anthropic-ai/sdk": "^0.60.0" } }),
      "server.js": `const model = process.env.MODEL ?? ${model};\napp.listen(process.env.PORT);\n`,
      "server.test.js": 'test("asks", () => ask("claude-3-haiku-20240307"));\n',
      "node_modules/helper/index.js": 'module.exports = "claude-2.1";\n',
    });
    const one = await folder(files('"claude-haiku-4-5"'));

    const found = await initScenarios(one, untried);

    expect(found.detected.at(-1)).toBe("model: claude-haiku-4-5 (named in server.js)");
    expect((await Effect.runPromise(readTranscript(join(one, "scenarios/example.ndjson")))).meta.model).toBe("claude-haiku-4-5");
    expect((await read(one, "scenarios/example.ndjson")).split("\n")[0]).toBe(
      "// Written by: replay-agent new --provider anthropic-messages --model claude-haiku-4-5 --user Hello --reply 'Hello! This reply is replayed by the replay agent.'",
    );
    expect(found.notes.find((note) => note.startsWith("scenarios/example.ndjson answers"))).toContain(
      "when the app asks the model claude-haiku-4-5 about",
    );

    const two = await folder(files('(fast ? "claude-haiku-4-5" : `claude-opus-4-1`)'));

    const several = await initScenarios(two, untried);

    expect(several.detected.at(-1)).toBe(
      "model: the default of replay-agent new (the app's source names claude-haiku-4-5, claude-opus-4-1)",
    );
    expect(several.notes.find((note) => note.startsWith("scenarios/example.ndjson answers"))).toContain(
      "when the app asks the default model of replay-agent new: run the command on its first line again with --model <the app's model> (one of claude-haiku-4-5, claude-opus-4-1) about",
    );
  });

  it("routes a provider URL that the app's own source names, not one in its tests, its dependencies or a bundle, and says to add mockttp", async () => {
    const dir = await folder({
      "package.json": json({ scripts: { start: "python3 app.py" } }),
      "a-bundle.js": `fetch("https://api.cohere.com/v2/chat");\n${"//".repeat(300 * 1024)}\n`,
      "app.py": pythonUrllib("https://api.anthropic.com/v1/messages", "ANTHROPIC_API_KEY"),
      "tests/test_app.py": 'FAKE = "https://api.openai.com/v1/chat/completions"\n',
      "test_app.py": 'FAKE = "https://api.openai.com/v1/chat/completions"\n',
      "node_modules/openai/index.js": 'const base = "https://api.openai.com/v1";\n',
    });

    const result = await initScenarios(dir, untried);

    expect(result.detected.filter((line) => line.startsWith("model provider: "))).toEqual([
      "model provider: api.anthropic.com (https://api.anthropic.com/v1/messages in app.py)",
    ]);
    expect(result.notes.filter((note) => note.includes("mockttp"))).toEqual([
      "app.route needs the mockttp package, which scenario-prover loads only for the route: run `npm install -D mockttp@4.6.3` before running the example.",
    ]);
    const checked = await Effect.runPromise(readTranscript(join(dir, "scenarios/example.ndjson")));
    expect(checked.meta.provider).toBe("anthropic-messages");
  });

  it("names the repository's default branch as --base, and the example's first test by --grep when the example holds two", async () => {
    /** Commits the folder's files on `branch`, as a repository with history has them. */
    const commitOn = async (dir: string, branch: string) => {
      const git = simpleGit(dir);
      await git.raw(["symbolic-ref", "HEAD", `refs/heads/${branch}`]);
      await git.add(".");
      await git.raw(["-c", "user.name=Init Test", "-c", "user.email=init@example.com", "commit", "-q", "-m", "the app"]);
    };
    const server = nodeApp({});
    // On master, which is checked out: the base is master.
    const master = await folder(server);
    await commitOn(master, "master");
    // A clone whose origin's default branch is trunk, on the branch of a fix: the base is origin/trunk, not the fix's branch.
    const clone = await folder(nodeApp({ openai: "^4.52.0" }));
    await commitOn(clone, "fix");
    await simpleGit(clone).raw(["update-ref", "refs/remotes/origin/trunk", "HEAD"]);
    await simpleGit(clone).raw(["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk"]);
    // A repository with no commit yet: init cannot tell.
    const fresh = await folder(server);

    const results = [await initScenarios(master, untried), await initScenarios(clone, untried), await initScenarios(fresh, untried)];

    expect(results.map((result) => result.proveCommand)).toEqual([
      "npx prove-scenario --base master --head HEAD scenarios/example.e2e.ts",
      'npx prove-scenario --base origin/trunk --head HEAD --grep "the app opens" scenarios/example.e2e.ts',
      "npx prove-scenario --base <base-ref> --head HEAD scenarios/example.e2e.ts",
    ]);
    const titles = async (dir: string) =>
      [...(await read(dir, "scenarios/example.e2e.ts")).matchAll(/^ *test\("([^"]+)"/gm)].map((match) => match[1]);
    expect(await titles(master)).toEqual(["the app opens"]);
    // --grep picks a test whose title contains the text: the first only.
    expect(await titles(clone)).toEqual(["the app opens", "the app shows the replayed reply"]);
  });

  it("writes the config of an Express app in a subfolder of its repository, with npm start and the folder as root", async () => {
    const repo = await folder({
      "apps/web/package.json": '{\n\t"name": "web",\n\t"scripts": {\n\t\t"start": "node server.js"\n\t}\n}',
      "apps/web/package-lock.json": "{}\n",
      "apps/web/server.js": 'const app = require("express")();\napp.listen(Number(process.env.PORT ?? 3000));\n',
    });
    const dir = join(repo, "apps/web");

    const result = await initScenarios(dir, untried);

    // Reports go under the repository's root, so they are ignored there.
    expect(result.written).toEqual(["scenarios.config.ts", "scenarios/example.e2e.ts", "package.json", "../../.gitignore"]);
    const config = await read(dir, "scenarios.config.ts");
    expect(config.split("\n")).toEqual(
      expect.arrayContaining([
        "    root: \"apps/web\", // the app's folder, relative to the repository's root",
        '    install: "auto", // here: npm ci --prefer-offline --no-audit --no-fund; false skips installing',
        '    start: "npm start", // server.js reads the PORT environment variable',
        '    ready: { path: "/" },',
      ]),
    );
    const example = await read(dir, "scenarios/example.e2e.ts");
    expect(example).toContain("  await app.open();\n");
    expect([...syntaxErrors(config, "scenarios.config.ts"), ...syntaxErrors(example, "example.e2e.ts")]).toEqual([]);
    expect(await read(dir, "package.json")).toBe(
      '{\n\t"name": "web",\n\t"scripts": {\n\t\t"start": "node server.js",\n\t\t"prove-scenario": "prove-scenario"\n\t}\n}',
    );
    expect(await read(repo, ".gitignore")).toBe("/reports/\ntest-results/\n");
    expect(existsSync(join(dir, ".gitignore"))).toBe(false);
    expect(result.notes).toEqual([
      "scenario-prover is not in package.json's dependencies: run `npm install -D scenario-prover` so scenarios.config.ts can import scenario-prover/harness.",
    ]);
  });

  it("ignores a lockfile above the repository and says in the config when it cannot tell how the server gets its port", async () => {
    const outer = await folder({ "pnpm-lock.yaml": "" }, { git: false });
    const dir = join(outer, "app");
    await mkdir(dir);
    await simpleGit(dir).init();
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({ scripts: { start: "node server.js" }, devDependencies: { "scenario-prover": "*" } }),
    );
    await writeFile(join(dir, "server.js"), "app.listen(3000);\n");
    await writeFile(join(dir, ".gitignore"), "dist/\n");

    const result = await initScenarios(dir, untried);

    expect(result.detected[0]).toBe("package manager: npm (no lockfile)");
    expect(result.notes).toEqual([
      "Could not tell how the server gets its port (server.js does not read process.env.PORT): it must listen on the PORT environment variable, or put {port} into app.start in scenarios.config.ts.",
    ]);
    const config = await read(dir, "scenarios.config.ts");
    expect(config).toContain(
      "    // Could not tell how the server gets its port (server.js does not read process.env.PORT):\n" +
        "    // it must listen on the PORT environment variable, or put {port} into this command.\n" +
        '    start: "npm start",\n',
    );
    expect(syntaxErrors(config, "scenarios.config.ts")).toEqual([]);
    expect(await read(dir, ".gitignore")).toBe("dist/\n/reports/\ntest-results/\n");
  });

  it("refuses, writing nothing, when the config or the example already exists", async () => {
    const packageJson = '{\n    "scripts": { "dev": "vite" }\n}\n';
    const dir = await folder({ "package.json": packageJson, "scenarios.config.ts": "// mine\n" });

    const error = await initScenarios(dir, untried).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(InitRefused);
    expect(error).toMatchObject({
      files: ["scenarios.config.ts"],
      message: "scenarios.config.ts already exists, so init wrote nothing. Move or remove it and run init again, or edit it by hand.",
    });
    expect(await read(dir, "package.json")).toBe(packageJson);
    expect(await read(dir, "scenarios.config.ts")).toBe("// mine\n");
    expect(existsSync(join(dir, "scenarios"))).toBe(false);
    expect(existsSync(join(dir, ".gitignore"))).toBe(false);

    await mkdir(join(dir, "scenarios"));
    await writeFile(join(dir, "scenarios/example.e2e.ts"), "");
    await expect(initScenarios(dir, untried)).rejects.toMatchObject({
      files: ["scenarios.config.ts", "scenarios/example.e2e.ts"],
      message:
        "scenarios.config.ts and scenarios/example.e2e.ts already exist, so init wrote nothing. Move or remove them and run init again, or edit them by hand.",
    });

    // For an app on a model provider's SDK, init would write the example transcript too: it is not written over either.
    await writeFile(join(dir, "package.json"), JSON.stringify({ scripts: { dev: "vite" }, dependencies: { openai: "^4.52.0" } }));
    await writeFile(join(dir, "scenarios/example.ndjson"), "");
    await expect(initScenarios(dir, untried)).rejects.toMatchObject({
      files: ["scenarios.config.ts", "scenarios/example.e2e.ts", "scenarios/example.ndjson"],
      message:
        "scenarios.config.ts, scenarios/example.e2e.ts and scenarios/example.ndjson already exist, so init wrote nothing. Move or remove them and run init again, or edit them by hand.",
    });
  });

  it("adds no prove-scenario script with pnpm, and says why and how to add @playwright/test for `pnpm exec playwright`; leaves a .gitignore that already ignores reports/ and test-results/", async () => {
    const { version } = JSON.parse(
      await readFile(join(import.meta.dirname, "../../node_modules/@playwright/test/package.json"), "utf8"),
    ) as {
      readonly version: string;
    };
    const packageJson = `${JSON.stringify({ scripts: { dev: "vite" }, devDependencies: { "scenario-prover": "workspace:*" } }, null, 2)}\n`;
    const dir = await folder({
      "package.json": packageJson,
      "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
      ".gitignore": "node_modules\n/reports\n/test-results\n",
    });

    const result = await initScenarios(dir, untried);

    expect(result.written).toEqual(["scenarios.config.ts", "scenarios/example.e2e.ts"]);
    expect(await read(dir, "package.json")).toBe(packageJson);
    expect(await read(dir, ".gitignore")).toBe("node_modules\n/reports\n/test-results\n");
    expect(result.detected.slice(0, 3)).toEqual([
      "package manager: pnpm (pnpm-lock.yaml)",
      "install: pnpm install --frozen-lockfile",
      `start: npx vite ${viteFlags} (the dev script \`vite\`, its tool run by npx from node_modules/.bin; Vite takes the port as a flag)`,
    ]);
    expect(result.notes).toEqual([
      'No "prove-scenario" script added to package.json: pnpm runs the installed bin for `pnpm prove-scenario` itself, ' +
        'and a script of that name would make pnpm print "[ELIFECYCLE] Command failed with exit code 1." after every "not proved" verdict.',
      // The @playwright/test found is this checkout's, in the peer range.
      '@playwright/test is not in package.json\'s dependencies, so `pnpm exec playwright test -c scenarios.config.ts` fails with "playwright: not found": ' +
        "pnpm installs it with scenario-prover, as its peer, but links the commands of the app's own dependencies only. " +
        `Run \`pnpm add -D @playwright/test@${version}\` before running the example.`,
    ]);
    expect(result.proveCommand).toBe("pnpm prove-scenario --base <base-ref> --head HEAD scenarios/example.e2e.ts");
    expect(result.exampleCommand).toBe("pnpm exec playwright test -c scenarios.config.ts");
  });

  it("fails, writing nothing, when package.json has no dev or start script", async () => {
    const dir = await folder({ "package.json": '{ "scripts": { "build": "tsc" } }\n' });

    const error = await initScenarios(dir, untried).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(InitFailed);
    expect(error).toMatchObject({
      file: join(dir, "package.json"),
      message:
        `${join(dir, "package.json")}: it has no "dev" or "start" script, so init cannot tell how the app starts. ` +
        "Add a `dev` or `start` script that starts the server, or write scenarios.config.ts by hand (see node_modules/scenario-prover/docs/config.md).",
    });
    expect(existsSync(join(dir, "scenarios.config.ts"))).toBe(false);
    expect(existsSync(join(dir, ".gitignore"))).toBe(false);

    // A Python app whose package.json only holds what installing scenario-prover wrote: the error says what script to add.
    const python = await folder({
      "package.json": json({ devDependencies: { "scenario-prover": "file:scenario-prover-0.1.0.tgz" } }),
      "app.py": 'import os\nPORT = int(os.environ["PORT"])\n',
    });
    const pythonError = await initScenarios(python, untried).catch((caught: unknown) => caught);
    expect(pythonError).toMatchObject({
      message:
        `${join(python, "package.json")}: it has no "dev" or "start" script, so init cannot tell how the app starts. ` +
        'Add a `start` script to its "scripts" that starts the server on the PORT environment variable, for app.py: `"start": "python3 app.py"`, ' +
        "or write scenarios.config.ts by hand (see node_modules/scenario-prover/docs/config.md).",
    });
  });

  it("fails naming the folder without a package.json, and the parse problem of a broken one", async () => {
    const dir = await folder({});
    await expect(initScenarios(dir, untried)).rejects.toMatchObject({
      _tag: "InitFailed",
      message: `${join(dir, "package.json")}: there is no package.json in ${dir}. Run prove-scenario init in the app's folder, the one holding its package.json.`,
    });
    await writeFile(join(dir, "package.json"), '{ "scripts": { "dev": "vite", } }');
    await expect(initScenarios(dir, untried)).rejects.toMatchObject({
      _tag: "InitFailed",
      message: expect.stringMatching(/package\.json: it is not valid JSON \(.+\)\. Fix it/),
    });
  });
});

describe("prove-scenario init and the package manager the repository pins", () => {
  /** This machine as the table sees it: pnpm 12 and npm 11 on PATH, no yarn. */
  const machine = (manager: string) => ({ pnpm: "12.4.2", npm: "11.19.1" })[manager];
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const managerLines = (detected: ReadonlyArray<string>) => detected.filter((line) => /^(package manager|install|start): /.test(line));
  interface PinnedRow {
    readonly shape: string;
    readonly files: Readonly<Record<string, string>>;
    readonly app: string;
    readonly detected: ReadonlyArray<string>;
    /** The command the note gives to add scenario-prover, with @playwright/test; undefined when a package.json up to the root already has it. */
    readonly add: string | undefined;
    readonly prove: string;
    /** The command that runs the example. */
    readonly example: string;
  }
  /** Why pnpm and yarn need @playwright/test in package.json for the example's command to find `playwright`. */
  const ownBins = {
    pnpm: "pnpm installs it with scenario-prover, as its peer, but links the commands of the app's own dependencies only",
    yarn: "yarn installs no peer dependency, and links the commands of the app's own dependencies only",
  };
  it.each<PinnedRow>([
    {
      shape: "an app in a pnpm workspace pinned to pnpm 9, whose dev script runs as written",
      files: {
        "package.json": json({
          private: true,
          packageManager:
            "pnpm@9.15.9+sha512.68046141893c66fad01c079231128e9afb89ef87e2691d69e4d40eee228988295fd4682181bae55b58418c3a253bde65a505ec7c5f9403ece5cc3cd37dcf2531",
        }),
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "pnpm-workspace.yaml": "packages:\n  - site\n",
        "site/package.json": json({ name: "site", scripts: { dev: "svelte-kit sync && vite dev" } }),
      },
      app: "site",
      detected: [
        "package manager: pnpm@9.15.9 through npx (packageManager in package.json; this machine's pnpm is 12.4.2)",
        "install: pnpm@9.15.9 install --frozen-lockfile (packageManager in package.json) in ..",
        `start: npx --yes --prefix=/ pnpm@9.15.9 dev ${viteFlags} (Vite takes the port as a flag; pnpm there is pnpm@9.15.9 (packageManager in package.json), fetched by npx from outside the repository (--prefix=/), so its npm overrides cannot stop it)`,
      ],
      add: "npx --yes --prefix=/ pnpm@9.15.9 add -D scenario-prover @playwright/test@1.65",
      example: "npx playwright test -c scenarios.config.ts",
      prove: "npx prove-scenario",
    },
    {
      shape: "a pnpm workspace's root app, on the machine's pnpm",
      files: {
        "package.json": json({ name: "site", scripts: { dev: "svelte-kit sync && vite dev" } }),
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
      },
      app: ".",
      detected: [
        "package manager: pnpm (pnpm-lock.yaml)",
        "install: pnpm install --frozen-lockfile",
        `start: pnpm dev ${viteFlags} (Vite takes the port as a flag)`,
      ],
      add: "pnpm add -D -w scenario-prover @playwright/test@1.65",
      example: "pnpm exec playwright test -c scenarios.config.ts",
      prove: "pnpm prove-scenario",
    },
    {
      shape: "a pnpm lockfile of format 5.4",
      files: {
        "package.json": json({ name: "chat", scripts: { start: "node server.js" } }),
        "pnpm-lock.yaml": "lockfileVersion: 5.4\n",
        "server.js": "listen(process.env.PORT);\n",
      },
      app: ".",
      detected: [
        "package manager: pnpm@7 through npx (lockfileVersion 5.4 in pnpm-lock.yaml; this machine's pnpm is 12.4.2)",
        "install: pnpm@7 install --frozen-lockfile (lockfileVersion 5.4 in pnpm-lock.yaml)",
        "start: node server.js (server.js reads the PORT environment variable; the script's own command, not run through pnpm@7 (lockfileVersion 5.4 in pnpm-lock.yaml), which would need npx)",
      ],
      add: "npx --yes --prefix=/ pnpm@7 add -D scenario-prover @playwright/test@1.65",
      example: "npx playwright test -c scenarios.config.ts",
      prove: "npx prove-scenario",
    },
    {
      shape: "a yarn v1 workspace's root, on a machine without yarn",
      files: {
        "package.json": json({ name: "web", private: true, workspaces: ["packages/*"], scripts: { start: "node server.js" } }),
        "yarn.lock": "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n",
        "server.js": "listen(process.env.PORT);\n",
      },
      app: ".",
      detected: [
        "package manager: yarn@1 through npx (yarn lockfile v1 in yarn.lock; no yarn on this machine)",
        "install: yarn@1 install --frozen-lockfile (yarn lockfile v1 in yarn.lock)",
        "start: node server.js (server.js reads the PORT environment variable; the script's own command, not run through yarn@1 (yarn lockfile v1 in yarn.lock), which would need npx)",
      ],
      add: "npx --yes --prefix=/ yarn@1 add -D -W scenario-prover @playwright/test@1.65",
      example: "npx playwright test -c scenarios.config.ts",
      prove: "npx prove-scenario",
    },
    {
      shape: "an app in a pnpm 9 workspace whose root has scenario-prover, whose start script runs a bin",
      files: {
        "package.json": json({ private: true, packageManager: "pnpm@9.15.9", devDependencies: { "scenario-prover": "^0.1.0" } }),
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "pnpm-workspace.yaml": "packages:\n  - docs\n",
        "docs/package.json": json({ name: "docs", scripts: { start: "NODE_ENV=development tsx server.ts" } }),
        "docs/server.ts": "listen(process.env.PORT);\n",
      },
      app: "docs",
      detected: [
        "package manager: pnpm@9.15.9 through npx (packageManager in package.json; this machine's pnpm is 12.4.2)",
        "install: pnpm@9.15.9 install --frozen-lockfile (packageManager in package.json) in ..",
        "start: NODE_ENV=development npx tsx server.ts (server.ts reads the PORT environment variable; the script's own command, not run through pnpm@9.15.9 (packageManager in package.json), which would need npx)",
      ],
      add: undefined,
      prove: "npx prove-scenario",
      example: "npx playwright test -c scenarios.config.ts",
    },
  ])("runs the pinned version for $shape, and says how to add scenario-prover", async ({ files, app, detected, add, prove, example }) => {
    const repo = await folder(files);
    const result = await initScenarios(join(repo, app), { ...untried, machine });
    expect(managerLines(result.detected)).toEqual(detected);
    expect(result.notes.filter((note) => note.startsWith("scenario-prover is not in"))).toEqual(
      add === undefined
        ? []
        : [
            `scenario-prover is not in package.json's dependencies: run \`${add}\` so scenarios.config.ts can import scenario-prover/harness, ` +
              `and \`${example}\` finds the playwright command (${files["yarn.lock"] === undefined ? ownBins.pnpm : ownBins.yarn}).`,
          ],
    );
    expect(result.exampleCommand).toBe(example);
    expect(result.proveCommand).toBe(`${prove} --base <base-ref> --head HEAD scenarios/example.e2e.ts`);
    // pnpm gets no prove-scenario script, and the note saying so names the command init suggests.
    const scriptNotes = result.notes.filter((note) => note.startsWith('No "prove-scenario" script'));
    expect(scriptNotes.map((note) => note.includes(`\`${prove}\``))).toEqual(files["pnpm-lock.yaml"] === undefined ? [] : [true]);
  });

  it("says how to add @playwright/test when none is found beside an installed scenario-prover (yarn installs no peer dependency)", async () => {
    const files = {
      "package.json": json({
        name: "web",
        private: true,
        workspaces: ["packages/*"],
        scripts: { start: "node server.js" },
        devDependencies: { "scenario-prover": "^0.1.0" },
      }),
      "yarn.lock": "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n",
      "server.js": "listen(process.env.PORT);\n",
    };
    const peerNote = (notes: ReadonlyArray<string>) => notes.filter((note) => note.startsWith("@playwright/test"));
    const missing = await initScenarios(await folder(files), { ...untried, machine, findPlaywright: () => undefined });
    expect(peerNote(missing.notes)).toEqual([
      "@playwright/test cannot be found beside scenario-prover: it is a peer dependency, which yarn (and npm or pnpm set not to) does not install with it. " +
        "Run `npx --yes --prefix=/ yarn@1 add -D -W @playwright/test@1.65` before running the example.",
    ]);
    // Where it is found (this checkout's) but not in package.json, yarn gives no playwright command: the note says so.
    const unlisted = await initScenarios(await folder(files), {
      ...untried,
      machine,
      findPlaywright: () => ({ cli: "", file: "", version: "1.65.1" }),
    });
    expect(peerNote(unlisted.notes)).toEqual([
      '@playwright/test is not in package.json\'s dependencies, so `npx playwright test -c scenarios.config.ts` fails with "playwright: not found": ' +
        `${ownBins.yarn}. Run \`npx --yes --prefix=/ yarn@1 add -D -W @playwright/test@1.65.1\` before running the example.`,
    ]);
    // Where package.json lists it, nothing is said.
    const listed = {
      ...files,
      "package.json": json({
        ...JSON.parse(files["package.json"]),
        devDependencies: { "scenario-prover": "^0.1.0", "@playwright/test": "^1.65.0" },
      }),
    };
    expect(peerNote((await initScenarios(await folder(listed), { ...untried, machine })).notes)).toEqual([]);
  });

  it("with the repository's own older Playwright, writes where the scenarios can have theirs and names the command: the app's package in a pnpm workspace, else proofs/", async () => {
    const old = {
      cli: "/repo/node_modules/@playwright/test/cli.js",
      file: "/repo/node_modules/@playwright/test/package.json",
      version: "1.38.0",
    };
    const found =
      "The @playwright/test that runs the proof (/repo/node_modules/@playwright/test/package.json) is version 1.38.0, and scenario-prover needs >=1.65.0 <2 (its peer dependency): " +
      "a Playwright outside that range can run your own tests, but not a proof. To leave your own suite on it, ";
    const upgrade = "npm i -D @playwright/test@1.65 (or pnpm add -D @playwright/test@1.65, yarn add -D @playwright/test@1.65)";
    const workspace = await folder({
      "package.json": json({
        private: true,
        packageManager: "pnpm@9.15.9",
        devDependencies: { "@playwright/test": "1.38.0", "scenario-prover": "^0.1.0" },
      }),
      "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
      "pnpm-workspace.yaml": "packages:\n  - docs\n",
      "docs/package.json": json({ name: "docs", scripts: { start: "node server.js" } }),
      "docs/server.js": "listen(process.env.PORT);\n",
    });
    const inPackage = await initScenarios(join(workspace, "docs"), { ...untried, machine, findPlaywright: () => old });
    expect(inPackage.written).toEqual(["scenarios.config.ts", "scenarios/example.e2e.ts", "../.gitignore"]);
    expect(inPackage.notes.filter((note) => note.startsWith("The @playwright/test"))).toEqual([
      `${found}this package of the workspace takes its own beside it: run \`npx --yes --prefix=/ pnpm@9.15.9 add -D scenario-prover @playwright/test@1.65\` before running the example; ` +
        `or put one in range in its place: ${upgrade}.`,
    ]);
    expect([inPackage.exampleCommand, inPackage.proveCommand]).toEqual([
      "npx playwright test -c scenarios.config.ts",
      "npx prove-scenario --base <base-ref> --head HEAD scenarios/example.e2e.ts",
    ]);

    const single = await folder({
      "package.json": json({
        scripts: { start: "node server.js" },
        dependencies: { "@ai-sdk/google": "^3.0.0" },
        devDependencies: { "@playwright/test": "1.38.0", "scenario-prover": "^0.1.0" },
      }),
      "package-lock.json": "{}\n",
      "server.js": "listen(process.env.PORT);\n",
    });
    const own = await initScenarios(single, { ...untried, machine, findPlaywright: () => old });
    expect(own.written).toEqual([
      "proofs/package.json",
      "proofs/scenarios.config.ts",
      "proofs/scenarios/example.e2e.ts",
      "proofs/scenarios/example.ndjson",
      ".gitignore",
    ]);
    // The route's mockttp goes beside the scenario-prover that loads it, in the same command.
    expect(own.notes.filter((note) => note.startsWith("The @playwright/test"))).toEqual([
      `${found}the config and the example are in proofs/, a package of its own: run \`cd proofs && npm install -D scenario-prover @playwright/test@1.65 mockttp@4.6.3\` before running the example, ` +
        `and run the prover from proofs/; or put one in range in its place: ${upgrade}.`,
    ]);
    expect(own.notes.filter((note) => note.startsWith("app.route needs the mockttp package"))).toEqual([]);
    expect([own.exampleCommand, own.proveCommand]).toEqual([
      "cd proofs && npx playwright test -c scenarios.config.ts",
      'cd proofs && npx prove-scenario --base <base-ref> --head HEAD --grep "the app opens" scenarios/example.e2e.ts',
    ]);
    expect(await read(single, "proofs/package.json")).toBe('{\n  "private": true\n}\n');
    const config = (await read(single, "proofs/scenarios.config.ts")).split("\n");
    expect(config).toEqual(
      expect.arrayContaining([
        "// The app under test. Every field is described in node_modules/scenario-prover/docs/config.md.",
        '  testDir: "scenarios",',
        "    root: \".\", // the app's folder, relative to the repository's root",
      ]),
    );
    await expect(initScenarios(single, { ...untried, machine, findPlaywright: () => old })).rejects.toBeInstanceOf(InitRefused);
  });

  it("points the config's comment at the docs where the package is installed: the app's node_modules, or the workspace root's", async () => {
    const files = {
      "package.json": json({ private: true, devDependencies: { "scenario-prover": "^0.1.0" } }),
      "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
      "pnpm-workspace.yaml": "packages:\n  - docs\n",
      "docs/package.json": json({ name: "docs", scripts: { start: "node server.js" } }),
      "docs/server.js": "listen(process.env.PORT);\n",
    };
    const atRoot = await folder({ ...files, "node_modules/scenario-prover/package.json": "{}" });
    const inApp = await folder({
      ...files,
      "docs/node_modules/scenario-prover/package.json": "{}",
      "node_modules/scenario-prover/package.json": "{}",
    });
    const comment = async (repo: string) => {
      await initScenarios(join(repo, "docs"), { ...untried, machine });
      return (await readFile(join(repo, "docs", "scenarios.config.ts"), "utf8"))
        .split("\n")
        .find((line) => line.startsWith("// The app under test."));
    };
    expect([await comment(atRoot), await comment(inApp)]).toEqual([
      "// The app under test. Every field is described in ../node_modules/scenario-prover/docs/config.md.",
      "// The app under test. Every field is described in node_modules/scenario-prover/docs/config.md.",
    ]);
  });

  it("notes that it cannot tell the yarn of a berry lockfile without packageManager", async () => {
    const repo = await folder({
      "package.json": json({ scripts: { start: "node server.js" } }),
      "yarn.lock": "__metadata:\n  version: 7\n",
    });
    const result = await initScenarios(repo, { ...untried, machine });
    expect(result.detected).toContain("install: cannot tell which package manager version installs it");
    expect(result.notes).toContain(
      'install: "auto" cannot tell which package manager version installs the app: yarn.lock is a yarn berry lockfile (__metadata version 7), and no package.json names the yarn version in packageManager: ' +
        'add "packageManager": "yarn@<version>" to package.json, or set app.install to the command that installs the app (e.g. "yarn install --immutable") in scenarios.config.ts.',
    );
  });
});

describe("prove-scenario init tries the install and the start it writes", () => {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const shop = (server: string, lock: Readonly<Record<string, string>> = {}) =>
    folder({
      "package.json": json({
        name: "shop",
        private: true,
        // The worker is written beside the server, and tried with it.
        scripts: { start: "node server.js", worker: "node worker.js" },
        dependencies: { prices: "file:./prices" },
      }),
      "prices/package.json": json({ name: "prices", version: "1.0.0" }),
      "server.js": server,
      "worker.js": 'console.log("shop worker ready");\nsetInterval(() => {}, 1000);\n',
      ...lock,
    });
  const listens =
    'require("node:http").createServer((_, response) => response.end("shop")).listen(Number(process.env.PORT), "127.0.0.1");\n';

  it("writes what worked, and gives the install's or the start's failure with its output and the fix, having stopped what it started", async () => {
    const works = await shop(listens);
    const progress: string[] = [];
    const worked = await initScenarios(works, { progress: (line) => progress.push(line) });
    expect(progress).toEqual([
      "trying the install: npm install in . …",
      "trying the start: `npm start` with the process worker until GET / answers …",
    ]);
    expect(worked.tried.map((line) => line.replace(/[\d.]+s\b/, "<time>"))).toEqual([
      "install: npm install in .: worked in <time>",
      "start: `npm start` with the process worker: GET / answered in <time>, then init stopped it",
    ]);
    expect(worked.failed).toEqual([]);
    expect(await read(works, "node_modules/prices/package.json")).toContain('"version": "1.0.0"');
    expect(await processesMentioning(works)).toEqual([]);

    // package.json names a dependency its lockfile lacks: npm ci refuses before it changes anything.
    const outOfSync = await shop(listens, {
      "package-lock.json": json({ name: "shop", lockfileVersion: 3, requires: true, packages: { "": { name: "shop" } } }),
    });
    const install = await initScenarios(outOfSync);
    expect(install.tried).toEqual([]);
    expect(install.failed).toHaveLength(2);
    expect(install.failed[0]).toMatch(
      /^the install init writes failed when init ran it: `npm ci --prefer-offline --no-audit --no-fund` in \. exited with code 1:\nnpm error code EUSAGE\n/,
    );
    expect(install.failed[0]).toContain("npm error Missing: prices@1.0.0 from lock file\n");
    expect(install.failed[0]).toMatch(/ lines left out\]\n/);
    expect(install.failed[0]?.split("\n").at(-1)).toBe(
      "A proof runs this install in each side's worktree: make it succeed here, or set app.install in scenarios.config.ts to the command that installs the app.",
    );
    expect(install.failed[1]).toBe("init did not try the start, as the install failed.");
    expect(install.written).toContain("scenarios.config.ts");

    const throws = await shop('throw new Error("DATABASE_URL is not set");\n');
    const start = await initScenarios(throws);
    expect(start.tried.map((line) => line.replace(/[\d.]+s\b/, "<time>"))).toEqual(["install: npm install in .: worked in <time>"]);
    expect(start.failed).toHaveLength(1);
    expect(start.failed[0]?.split("\n")[0]).toBe(
      'the start init writes failed when init ran it: The app\'s process "web" exited with code 1 before it was ready, having thrown "Error: DATABASE_URL is not set". ' +
        "Check app.start.web (`npm start`) in the scenario config and its output:",
    );
    expect(start.failed[0]?.split("\n").at(-1)).toBe("Fix app.start or app.ready in scenarios.config.ts.");
  });

  it("tries a start until its ready path and the routes app.ready.warm asks for have answered, and says it asked for them", async () => {
    const dir = await folder({
      // Notes each path it answers, in a file beside it: the try asks for the warm route only once the page answered.
      "server.js":
        'const { appendFileSync } = require("node:fs");\n' +
        'require("node:http").createServer((request, response) => { appendFileSync("asked.txt", request.url + "\\n"); response.end("ok"); })' +
        '.listen(Number(process.env.PORT), "127.0.0.1");\n',
    });
    const progress: string[] = [];
    const tried = await tryCommands(
      {
        install: { kind: "skip", reason: "app.install is false" },
        start: "node server.js",
        dir,
        app: { start: "node server.js", ready: { path: "/", warm: ["/api/chat"] } },
        beside: [],
        where: () => ".",
      },
      (line) => progress.push(line),
    );
    const asked = (await read(dir, "asked.txt")).trim().split("\n");
    expect(progress).toEqual(["trying the start: `node server.js` until GET / and app.ready.warm's GET /api/chat answer …"]);
    expect(tried.worked.map((line) => line.replace(/[\d.]+s\b/, "<time>"))).toEqual([
      "install: nothing to install (app.install is false)",
      "start: `node server.js`: GET / and app.ready.warm's GET /api/chat answered in <time>, then init stopped it",
    ]);
    expect(asked.at(-1)).toBe("/api/chat");
    expect(await processesMentioning(dir)).toEqual([]);
  });

  it("tries a start with the services, app.prepare and the processes it writes, as a test boots them, and names a prepare that fails", async () => {
    const progress: string[] = [];
    const dir = await folder({
      // The server answers only with the table prepare made, reached through the service's URL it was given.
      "server.js":
        'const { execFileSync } = require("node:child_process");\n' +
        'const rows = execFileSync("psql", [process.env.DATABASE_URL, "-tAc", "select count(*) from notes"], { encoding: "utf8" }).trim();\n' +
        'require("node:http").createServer((_, response) => response.end(rows)).listen(Number(process.env.PORT), "127.0.0.1");\n',
      "worker.js": 'console.log("notes worker ready");\nsetInterval(() => {}, 1000);\n',
    });
    const plan = (prepare: string) => ({
      install: { kind: "skip", reason: "app.install is false" } as const,
      start: "node server.js",
      dir,
      app: {
        start: { web: "node server.js", worker: { command: "node worker.js", ready: { log: /notes worker ready/ } } },
        ready: { path: "/" },
        services: { postgres: { kind: "postgres" } },
        prepare,
        env: { DATABASE_URL: "{postgres.url}" },
      } as const,
      beside: ["the service postgres", `app.prepare (${prepare})`, "the process worker"],
      where: () => ".",
    });

    const worked = await tryCommands(plan('psql "$DATABASE_URL" -c "create table notes (title text)"'), (line) => progress.push(line));
    expect(progress).toEqual([
      'trying the start: `node server.js` with the service postgres, app.prepare (psql "$DATABASE_URL" -c "create table notes (title text)"), the process worker until GET / answers …',
    ]);
    expect({ ...worked, worked: worked.worked.map((line) => line.replace(/[\d.]+s\b/, "<time>")) }).toEqual({
      worked: [
        "install: nothing to install (app.install is false)",
        'start: `node server.js` with the service postgres, app.prepare (psql "$DATABASE_URL" -c "create table notes (title text)"), the process worker: GET / answered in <time>, then init stopped it',
      ],
      failed: [],
    });

    const failed = await tryCommands(plan('psql "$DATABASE_URL" -c "create table notes (title texts)"'), () => {});
    expect(failed.worked).toEqual(["install: nothing to install (app.install is false)"]);
    expect(failed.failed[0]?.split("\n")[0]).toBe(
      'the start init writes failed when init ran it: app.prepare\'s `psql "$DATABASE_URL" -c "create table notes (title texts)"` exited with code 1: ' +
        "fix the command in the scenario config, or the app's migration. Its output:",
    );
    expect(failed.failed[0]).toContain('type "texts" does not exist');
    expect(failed.failed[0]?.split("\n").at(-1)).toBe("Fix app.start, app.ready, app.services or app.prepare in scenarios.config.ts.");
    // Nothing of either try is left in the app's folder (the services' own stop is shown in harness/services/).
    expect(await processesMentioning(dir)).toEqual([]);
  });
});
