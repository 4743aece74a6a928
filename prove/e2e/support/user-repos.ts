import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { execa } from "execa";

/** A git repository of a user's app, which knows nothing of scenario-prover until the test installs it. */
export interface UserRepo {
  readonly dir: string;
  readonly git: (...args: string[]) => Promise<string>;
}

async function repository(dir: string, files: Readonly<Record<string, string>>): Promise<UserRepo> {
  await mkdir(dir, { recursive: true });
  const git = async (...args: string[]) => (await execa("git", args, { cwd: dir })).stdout;
  await git("init", "-q", "-b", "main");
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return { dir, git };
}

async function commit(repo: UserRepo, tag: string, message: string): Promise<void> {
  await repo.git("add", "-A");
  await repo.git("-c", "user.name=Shop Dev", "-c", "user.email=dev@example.com", "commit", "-qm", message);
  await repo.git("tag", tag);
}

const server = (add: string) => `const http = require("node:http");

const add = (a, b) => ${add};

http
  .createServer((request, response) => {
    const query = new URL(request.url, "http://shop").searchParams;
    const total = add(query.get("a") ?? "0", query.get("b") ?? "0");
    response.writeHead(200, { "content-type": "text/html" });
    response.end(\`<!doctype html><title>Shop</title><h1>Cart</h1><p role="status">Total: \${total}</p>\`);
  })
  .listen(Number(process.env.PORT), "127.0.0.1", () => console.log(\`shop listening on \${process.env.PORT}\`));
`;

/**
 * The shop's server with an assistant: a form whose question the server asks OpenAI's Chat
 * Completions through the official `openai` client (its base URL and key from the environment, as
 * the client reads them), streamed, and whose answer the page shows.
 */
const shopServer = (add: string) => `const http = require("node:http");
const { OpenAI } = require("openai");

const add = (a, b) => ${add};

async function answer(question) {
  const stream = await new OpenAI().chat.completions.create({
    model: "gpt-4.1-mini",
    stream: true,
    messages: [{ role: "user", content: question }],
  });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
  return text;
}

http
  .createServer(async (request, response) => {
    const url = new URL(request.url, "http://shop");
    const query = url.searchParams;
    const ask = '<form action="/ask"><input name="q" aria-label="Ask the shop"></form>';
    const shown =
      url.pathname === "/ask"
        ? \`<p role="log">\${await answer(query.get("q") ?? "")}</p>\`
        : \`<h1>Cart</h1><p role="status">Total: \${add(query.get("a") ?? "0", query.get("b") ?? "0")}</p>\`;
    response.writeHead(200, { "content-type": "text/html" });
    response.end(\`<!doctype html><title>Shop</title>\${ask}\${shown}\`);
  })
  .listen(Number(process.env.PORT), "127.0.0.1", () => console.log(\`shop listening on \${process.env.PORT}\`));
`;

/**
 * An Express-style app as many are: CommonJS, npm without a lockfile, a server that reads PORT,
 * and an assistant on the openai client (5.x: smaller to install than the current line, and it
 * reads OPENAI_BASE_URL). Tag `bug`: the cart's total of 1 and 2 reads 12; tag `fix`: 3.
 */
export async function makeShopRepo(dir: string): Promise<UserRepo> {
  const repo = await repository(dir, {
    ".gitignore": "node_modules/\n",
    "package.json": `${JSON.stringify({ name: "shop", version: "1.0.0", private: true, scripts: { start: "node server.js" }, dependencies: { openai: "5.23.2" } }, null, 2)}\n`,
    "server.js": shopServer("a + b"),
  });
  await commit(repo, "bug", "Show the cart's total");
  await writeFile(join(dir, "server.js"), shopServer("Number(a) + Number(b)"));
  await commit(repo, "fix", "Add the numbers, not the strings");
  return repo;
}

/** A Vite app served under /store/ (its config's `base`), an ES module package with Vite as its one dependency. */
export async function makeStoreRepo(dir: string, vite: string): Promise<UserRepo> {
  const repo = await repository(dir, {
    ".gitignore": "node_modules/\n",
    "package.json": `${JSON.stringify({ name: "store", private: true, type: "module", scripts: { dev: "vite" }, devDependencies: { vite } }, null, 2)}\n`,
    "vite.config.ts": 'import { defineConfig } from "vite";\n\nexport default defineConfig({ base: "/store/" });\n',
    "index.html": '<!doctype html>\n<html lang="en">\n<title>Store</title>\n<h1>Store</h1>\n</html>\n',
  });
  await commit(repo, "v1", "Open the store");
  return repo;
}

/**
 * The shop app pinned to a package manager older than this machine's, with one local dependency
 * (so an install writes node_modules) and the lockfile that version wrote when the fixture was
 * built: `pnpm`, packageManager "pnpm@9.15.9" and its lockfileVersion 9.0 lockfile (the machine's
 * pnpm 12 refuses the pin); `yarn`, a yarn v1 lockfile and no packageManager (no yarn is installed).
 * Tags `v1` and `bug`: the cart's total of 1 and 2 reads 12; `fix`: 3, added by the local dependency.
 */
export async function makePinnedRepo(dir: string, pin: "pnpm" | "yarn"): Promise<UserRepo> {
  const packageJson = {
    name: "shop",
    private: true,
    ...(pin === "pnpm" ? { packageManager: "pnpm@9.15.9" } : {}),
    scripts: { start: "node server.js" },
    dependencies: { prices: "file:./prices" },
  };
  const repo = await repository(dir, {
    ".gitignore": "node_modules/\n",
    "package.json": `${JSON.stringify(packageJson, null, 2)}\n`,
    "prices/package.json": `${JSON.stringify({ name: "prices", version: "1.0.0", main: "index.js" })}\n`,
    "prices/index.js": "exports.add = (a, b) => Number(a) + Number(b);\n",
    "server.js": server("a + b"),
  });
  await execa("npx", ["--yes", pin === "pnpm" ? "pnpm@9.15.9" : "yarn@1", "install"], { cwd: dir, stdin: "ignore" });
  await commit(repo, "v1", "Open the shop");
  await repo.git("tag", "bug");
  await writeFile(join(dir, "server.js"), server('require("prices").add(a, b)'));
  await commit(repo, "fix", "Add the numbers with prices, not the strings");
  return repo;
}

/**
 * A pnpm workspace pinned to pnpm 9 (packageManager "pnpm@9.15.9", the lockfile it wrote) whose
 * app is in docs/, its dev script `node server.js`, with a workspace package `prices` beside it.
 * Tag `bug`: the total of 1 and 2 reads 12; `fix`: 3.
 */
export async function makeWorkspaceRepo(dir: string): Promise<UserRepo> {
  const repo = await repository(dir, {
    ".gitignore": "node_modules/\n",
    "package.json": `${JSON.stringify({ name: "site", private: true, packageManager: "pnpm@9.15.9" }, null, 2)}\n`,
    "pnpm-workspace.yaml": "packages:\n  - docs\n  - prices\n",
    "prices/package.json": `${JSON.stringify({ name: "prices", version: "1.0.0", main: "index.js" })}\n`,
    "prices/index.js": "exports.add = (a, b) => Number(a) + Number(b);\n",
    "docs/package.json": `${JSON.stringify({ name: "docs", private: true, scripts: { dev: "node server.js" }, dependencies: { prices: "workspace:*" } }, null, 2)}\n`,
    "docs/server.js": server("a + b"),
  });
  await execa("npx", ["--yes", "pnpm@9.15.9", "install"], { cwd: dir, stdin: "ignore" });
  await commit(repo, "bug", "Show the total");
  await writeFile(join(dir, "docs/server.js"), server('require("prices").add(a, b)'));
  await commit(repo, "fix", "Add the numbers with prices");
  return repo;
}

/**
 * A stand-in for `next dev`, installed as the package `next`: it compiles a page on its first
 * request (the first answer waits), and serves its dev resources (/_next/…) to the origin
 * http://localhost:<port> only, refusing other hosts with the warning next dev logs, so a page
 * opened at 127.0.0.1 never hydrates. The page is app/page.html; app/client.js hydrates it.
 */
const nextStandIn = `#!/usr/bin/env node
const { readFileSync } = require("node:fs");
const http = require("node:http");

const args = process.argv.slice(2);
const port = Number(args[args.indexOf("-p") + 1] || process.env.PORT || 3000);
const compiled = new Set();
const compile = (page) =>
  new Promise((resolve) => {
    if (compiled.has(page)) return resolve();
    console.log(\` ○ Compiling \${page} ...\`);
    setTimeout(() => {
      compiled.add(page);
      console.log(\` ✓ Compiled \${page} in 1500ms\`);
      resolve();
    }, 1500);
  });

http
  .createServer(async (request, response) => {
    const path = new URL(request.url, "http://next").pathname;
    if (path.startsWith("/_next/")) {
      const host = (request.headers.host || "").replace(/:\\d+$/, "");
      if (host !== "localhost") {
        console.warn(\` ⚠ Blocked cross-origin request to Next.js dev resource \${path} from "\${host}".\`);
        response.writeHead(403).end("Unauthorized");
        return;
      }
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(readFileSync("app/client.js"));
      return;
    }
    await compile(path);
    response.writeHead(200, { "content-type": "text/html" });
    response.end(\`\${readFileSync("app/page.html", "utf8")}<script src="/_next/static/chunks/app.js"></script>\`);
  })
  .listen(port, () => console.log(\`   ▲ Next.js 16 (stand-in)\\n   - Local: http://localhost:\${port}\`));
`;

const dashClient = (add: string) => `const [a, b] = document.querySelectorAll("input");
const button = document.querySelector("button");
button.addEventListener("click", () => {
  document.querySelector("[role=status]").textContent = \`Total: \${${add}}\`;
});
button.disabled = false;
`;

/** The dash's package.json: yarn 1's, or a yarn 3 pin with npm `overrides` that conflict with a direct dependency, as LangChain's template has. */
const dashManifest = (yarn: "1" | "3") => ({
  name: "dash",
  private: true,
  ...(yarn === "3" ? { packageManager: "yarn@3.6.4" } : {}),
  scripts: { dev: "next dev" },
  dependencies: { next: "file:./vendor/next" },
  ...(yarn === "3" ? { overrides: { next: "16.0.0" } } : {}),
});

/**
 * A dashboard on the next dev stand-in above: a button, disabled until the client code hydrates
 * the page, adds two fields. Tag `bug`: 1 and 2 make 12; `fix`: 3. `yarn` 1: the yarn v1 lockfile
 * yarn 1 wrote when the fixture was built and no packageManager (no yarn is installed); `fix` also
 * moves the repository to yarn berry with no .yarnrc.yml: packageManager "yarn@4.9.2" and the
 * lockfile yarn 4 converted from yarn 1's, no linker named (so berry would use Plug'n'Play), and
 * the checkout is left at `bug`, the user's main branch. `yarn` 3: packageManager "yarn@3.6.4",
 * the lockfile it wrote and Plug'n'Play (nodeLinker: pnp in .yarnrc.yml), and npm `overrides` on
 * which any npx that must fetch a package in the repository stops with EOVERRIDE.
 */
export async function makeDashRepo(dir: string, yarn: "1" | "3" = "1"): Promise<UserRepo> {
  const repo = await repository(dir, {
    ".gitignore": yarn === "1" ? "node_modules/\n" : "node_modules/\n.yarn/\n.pnp.*\n",
    "package.json": `${JSON.stringify(dashManifest(yarn), null, 2)}\n`,
    // yarn 3 asks for Plug'n'Play in its .yarnrc.yml, so the prover keeps it (with no linker named, it installs node_modules).
    ...(yarn === "3" ? { ".yarnrc.yml": "nodeLinker: pnp\n" } : {}),
    "vendor/next/package.json": `${JSON.stringify({ name: "next", version: "16.0.0-standin", bin: { next: "cli.js" } }, null, 2)}\n`,
    "vendor/next/cli.js": nextStandIn,
    "app/page.html":
      '<!doctype html><title>Dash</title><input aria-label="a" value="1"><input aria-label="b" value="2"><button disabled>Add</button><p role="status">Total: 0</p>',
    "app/client.js": dashClient("a.value + b.value"),
  });
  // Fetched from outside the repository: in it, npx stops at the overrides.
  // The lockfile is made here, which berry refuses where CI is set (its installs are immutable there) unless told.
  const install =
    yarn === "1" ? ["yarn@1", "install"] : ["--prefix=/", "--package=@yarnpkg/cli-dist@3.6.4", "yarn", "install", "--no-immutable"];
  await execa("npx", ["--yes", ...install], { cwd: dir, stdin: "ignore" });
  await commit(repo, "bug", "Add the fields");
  await writeFile(join(dir, "app/client.js"), dashClient("Number(a.value) + Number(b.value)"));
  if (yarn === "3") {
    await commit(repo, "fix", "Add the fields as numbers");
    return repo;
  }
  const packageJson = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ ...packageJson, packageManager: "yarn@4.9.2" }, null, 2)}\n`);
  // The lockfile alone, converted from yarn 1's, nothing installed. Not committed: berry's install state (.yarn/), and the
  // .yarnrc.yml its migration from yarn 1 writes (nodeLinker: node-modules), as the repository this stands for has none.
  const berry = ["--yes", "--package=@yarnpkg/cli-dist@4.9.2", "yarn", "install", "--mode=update-lockfile", "--no-immutable"];
  await execa("npx", berry, { cwd: dir, stdin: "ignore" });
  await Promise.all([".yarn", ".yarnrc.yml"].map((file) => rm(join(dir, file), { recursive: true, force: true })));
  await commit(repo, "fix", "Add the fields as numbers, on yarn 4");
  await repo.git("checkout", "-q", "bug");
  return repo;
}
