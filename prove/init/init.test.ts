import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { simpleGit } from "simple-git";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { basePathOf, detectApp } from "./detect.ts";
import { InitFailed, InitRefused, initScenarios } from "./index.ts";

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
  const output = ts.transpileModule(text, { fileName, reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return (output.diagnostics ?? []).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

const read = (dir: string, file: string) => readFile(join(dir, file), "utf8");
const viteFlags = "--host 127.0.0.1 --port {port} --strictPort";

describe("detecting how the app starts", () => {
  it.each([
    ["a Vite dev server with npm and no lockfile", { scripts: { dev: "vite" } }, undefined, {}, "npm (no lockfile)", `npm run dev -- ${viteFlags}`, "flags: Vite takes the port as a flag"],
    ["`vite dev` with a pnpm lockfile above the app", { scripts: { dev: "vite dev --open" } }, "../../pnpm-lock.yaml", {}, "pnpm (../../pnpm-lock.yaml)", `pnpm dev ${viteFlags}`, "flags: Vite takes the port as a flag"],
    ["`node server.js` whose file reads PORT", { scripts: { start: "node server.js" } }, "package-lock.json", { "server.js": "app.listen(process.env.PORT);\n" }, "npm (package-lock.json)", "npm start", "env: server.js reads the PORT environment variable"],
    ["`node server.js` whose file does not read PORT", { scripts: { start: "node server.js" } }, undefined, { "server.js": "app.listen(3000);\n" }, "npm (no lockfile)", "npm start", "unknown: server.js does not read process.env.PORT"],
    ["`next dev`", { scripts: { dev: "next dev", start: "next start" } }, undefined, {}, "npm (no lockfile)", "npm run dev", "env: Next.js reads the PORT environment variable"],
    ["`astro dev`", { scripts: { dev: "astro dev" } }, undefined, {}, "npm (no lockfile)", "npm run dev -- --host 127.0.0.1 --port {port}", "flags: Astro takes the port as a flag"],
    ["`webpack serve`", { scripts: { start: "webpack serve --mode development" } }, undefined, {}, "npm (no lockfile)", "npm start -- --port {port}", "flags: webpack-dev-server takes the port as a flag"],
    ["dev, preferred over start", { scripts: { start: "node server.js", dev: "cross-env DEBUG=1 vite" } }, undefined, {}, "npm (no lockfile)", `npm run dev -- ${viteFlags}`, "flags: Vite takes the port as a flag"],
    ["the packageManager field", { packageManager: "yarn@4.1.0", scripts: { dev: "vite" } }, undefined, {}, 'yarn (packageManager "yarn@4.1.0" in package.json)', `yarn dev ${viteFlags}`, "flags: Vite takes the port as a flag"],
    ["a yarn lockfile and a built server", { scripts: { start: "tsc && node -r dotenv/config dist/server" } }, "yarn.lock", { "dist/server.js": 'const { PORT = "3000" } = process.env;\n' }, "yarn (yarn.lock)", "yarn start", "env: dist/server.js reads the PORT environment variable"],
    ["a bun lockfile and `bun --hot`", { scripts: { dev: "bun --hot src/index.ts" } }, "bun.lock", { "src/index.ts": 'Bun.serve({ port: Bun.env["PORT"] });\n' }, "bun (bun.lock)", "bun run dev", "env: src/index.ts reads the PORT environment variable"],
    ["a tool init does not know", { scripts: { dev: "concurrently 'vite' 'tsc -w'" } }, undefined, {}, "npm (no lockfile)", "npm run dev", "unknown: `concurrently 'vite' 'tsc -w'` is not a server init knows"],
  ])("reads %s", (_case, packageJson, lockfile, files: Readonly<Record<string, string>>, manager, start, port) => {
    const detection = detectApp({ dir: "/app", packageJson, lockfile, read: (file) => files[file] });
    expect({
      manager: `${detection.manager.manager} (${detection.manager.why})`,
      start: detection.start.command,
      port: `${detection.start.port.kind}: ${detection.start.port.why}`,
    }).toEqual({ manager, start, port });
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
    const packageJson = { name: "shop", type: "module", scripts: { dev: "vite", build: "vite build" }, devDependencies: { "scenario-prover": "^0.1.0", vite: "^6.0.0" } };
    const dir = await folder({
      "package.json": `${JSON.stringify(packageJson, null, 2)}\n`,
      "vite.config.ts": 'import { defineConfig } from "vite";\n\nexport default defineConfig({\n  base: \'/sub/\',\n});\n',
      ".gitignore": "node_modules",
    });

    const result = await initScenarios(dir);

    expect(result).toEqual({
      written: ["scenarios.config.ts", "scenarios/example.e2e.ts", "package.json", ".gitignore"],
      detected: [
        "package manager: npm (no lockfile)",
        "install: npm install (no lockfile)",
        `start: npm run dev -- ${viteFlags} (Vite takes the port as a flag)`,
        "served under /sub/ (base in vite.config.ts)",
        "app root: . (the repository's root)",
      ],
      notes: [],
      proveCommand: "npx prove-scenario --base main --head HEAD scenarios/example.e2e.ts",
    });
    const config = await read(dir, "scenarios.config.ts");
    expect(config.split("\n")).toEqual(
      expect.arrayContaining([
        'import { defineScenarioConfig } from "scenario-prover/harness";',
        "  expect: { timeout: 5_000 },",
        '    root: ".", // the app\'s folder, relative to the repository\'s root',
        '    install: "auto", // here: npm install (no lockfile); false skips installing',
        `    start: "npm run dev -- ${viteFlags}", // Vite takes the port as a flag`,
        '    ready: { path: "/sub/" },',
      ]),
    );
    const example = await read(dir, "scenarios/example.e2e.ts");
    expect(example).toContain('  await app.open("/sub/");\n');
    expect([...syntaxErrors(config, "scenarios.config.ts"), ...syntaxErrors(example, "example.e2e.ts")]).toEqual([]);
    expect(await read(dir, "package.json")).toBe(
      `${JSON.stringify({ ...packageJson, scripts: { ...packageJson.scripts, "prove-scenario": "prove-scenario" } }, null, 2)}\n`,
    );
    expect(await read(dir, ".gitignore")).toBe("node_modules\n/reports/\n");
  });

  it("writes the config of an Express app in a subfolder of its repository, with npm start and the folder as root", async () => {
    const repo = await folder({
      "apps/web/package.json": '{\n\t"name": "web",\n\t"scripts": {\n\t\t"start": "node server.js"\n\t}\n}',
      "apps/web/package-lock.json": "{}\n",
      "apps/web/server.js": 'const app = require("express")();\napp.listen(Number(process.env.PORT ?? 3000));\n',
    });
    const dir = join(repo, "apps/web");

    const result = await initScenarios(dir);

    // Reports go under the repository's root, so they are ignored there.
    expect(result.written).toEqual(["scenarios.config.ts", "scenarios/example.e2e.ts", "package.json", "../../.gitignore"]);
    const config = await read(dir, "scenarios.config.ts");
    expect(config.split("\n")).toEqual(
      expect.arrayContaining([
        '    root: "apps/web", // the app\'s folder, relative to the repository\'s root',
        '    install: "auto", // here: npm ci; false skips installing',
        '    start: "npm start", // server.js reads the PORT environment variable',
        '    ready: { path: "/" },',
      ]),
    );
    const example = await read(dir, "scenarios/example.e2e.ts");
    expect(example).toContain("  await app.open();\n");
    expect([...syntaxErrors(config, "scenarios.config.ts"), ...syntaxErrors(example, "example.e2e.ts")]).toEqual([]);
    expect(await read(dir, "package.json")).toBe('{\n\t"name": "web",\n\t"scripts": {\n\t\t"start": "node server.js",\n\t\t"prove-scenario": "prove-scenario"\n\t}\n}');
    expect(await read(repo, ".gitignore")).toBe("/reports/\n");
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
    await writeFile(join(dir, "package.json"), JSON.stringify({ scripts: { start: "node server.js" }, devDependencies: { "scenario-prover": "*" } }));
    await writeFile(join(dir, "server.js"), "app.listen(3000);\n");
    await writeFile(join(dir, ".gitignore"), "dist/\n");

    const result = await initScenarios(dir);

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
    expect(await read(dir, ".gitignore")).toBe("dist/\n/reports/\n");
  });

  it("refuses, writing nothing, when the config or the example already exists", async () => {
    const packageJson = '{\n    "scripts": { "dev": "vite" }\n}\n';
    const dir = await folder({ "package.json": packageJson, "scenarios.config.ts": "// mine\n" });

    const error = await initScenarios(dir).catch((caught: unknown) => caught);

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
    await expect(initScenarios(dir)).rejects.toMatchObject({
      files: ["scenarios.config.ts", "scenarios/example.e2e.ts"],
      message: "scenarios.config.ts and scenarios/example.e2e.ts already exist, so init wrote nothing. Move or remove them and run init again, or edit them by hand.",
    });
  });

  it("adds no prove-scenario script with pnpm, and says why; leaves a .gitignore that already ignores reports/", async () => {
    const packageJson = `${JSON.stringify({ scripts: { dev: "vite" }, devDependencies: { "scenario-prover": "workspace:*" } }, null, 2)}\n`;
    const dir = await folder({ "package.json": packageJson, "pnpm-lock.yaml": "lockfileVersion: '9.0'\n", ".gitignore": "node_modules\n/reports\n" });

    const result = await initScenarios(dir);

    expect(result.written).toEqual(["scenarios.config.ts", "scenarios/example.e2e.ts"]);
    expect(await read(dir, "package.json")).toBe(packageJson);
    expect(await read(dir, ".gitignore")).toBe("node_modules\n/reports\n");
    expect(result.detected.slice(0, 3)).toEqual([
      "package manager: pnpm (pnpm-lock.yaml)",
      "install: pnpm install --frozen-lockfile",
      `start: pnpm dev ${viteFlags} (Vite takes the port as a flag)`,
    ]);
    expect(result.notes).toEqual([
      'No "prove-scenario" script added to package.json: pnpm runs the installed bin for `pnpm prove-scenario` itself, ' +
        'and a script of that name would make pnpm print "[ELIFECYCLE] Command failed with exit code 1." after every "not proved" verdict.',
    ]);
    expect(result.proveCommand).toBe("pnpm prove-scenario --base main --head HEAD scenarios/example.e2e.ts");
  });

  it("fails, writing nothing, when package.json has no dev or start script", async () => {
    const dir = await folder({ "package.json": '{ "scripts": { "build": "tsc" } }\n' });

    const error = await initScenarios(dir).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(InitFailed);
    expect(error).toMatchObject({
      file: join(dir, "package.json"),
      message:
        `${join(dir, "package.json")}: it has no "dev" or "start" script, so init cannot tell how the app starts. ` +
        "Add a `dev` or `start` script that starts the server, or write scenarios.config.ts by hand (see node_modules/scenario-prover/docs/config.md).",
    });
    expect(existsSync(join(dir, "scenarios.config.ts"))).toBe(false);
    expect(existsSync(join(dir, ".gitignore"))).toBe(false);
  });

  it("fails naming the folder without a package.json, and the parse problem of a broken one", async () => {
    const dir = await folder({});
    await expect(initScenarios(dir)).rejects.toMatchObject({
      _tag: "InitFailed",
      message: `${join(dir, "package.json")}: there is no package.json in ${dir}. Run prove-scenario init in the app's folder, the one holding its package.json.`,
    });
    await writeFile(join(dir, "package.json"), '{ "scripts": { "dev": "vite", } }');
    await expect(initScenarios(dir)).rejects.toMatchObject({ _tag: "InitFailed", message: expect.stringMatching(/package\.json: it is not valid JSON \(.+\)\. Fix it/) });
  });
});
