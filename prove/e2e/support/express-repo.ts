import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";

/**
 * A plain git repository holding a small Express app served under /app/, with a real bug and
 * its fix on separate commits, each tagged:
 *
 * - `bug`: the total of a=1 and b=2 shows "12" (query strings concatenated)
 * - `fix`: it shows 3
 * - `noop`: the fix plus a README change
 * - `broken-fix`: a change that does not fix it: the server adds right, but the page's script throws (it writes the
 *   total into an element the page lacks), so the page shows no total and only its console says why
 * - `flaky`: buggy on odd starts and fixed on even ones, counted in a file outside the repository
 * - `boot-crash`: the server throws before it listens
 * - `install-broken`: no lockfile, and a dependency on a vendored tarball that is not there
 * - `hang`: /app/hang writes a marker file with the server's pid and never answers
 * - `compile-bug` and `compile-fix`: the bug and its fix in a server that, as a dev server compiling a
 *   route on its first request, answers its first request under /app/api/ 5 s late, then at once
 */
export interface ExpressRepo {
  readonly dir: string;
  /** Folder the `hang` commit's server writes `hang-<pid>` into. */
  readonly signals: string;
  readonly git: (...args: string[]) => Promise<string>;
}

const page = `<!doctype html>
<html lang="en">
<title>Sum</title>
<h1>Sum</h1>
<label>a <input name="a"></label>
<label>b <input name="b"></label>
<button>Add</button>
<p><output></output></p>
<script>
  document.querySelector("button").addEventListener("click", async () => {
    const value = (name) => encodeURIComponent(document.querySelector(\`[name=\${name}]\`).value);
    const response = await fetch(\`api/sum?a=\${value("a")}&b=\${value("b")}\`);
    const { total } = await response.json();
    document.querySelector("output").textContent = \`Total: \${total}\`;
  });
</script>
</html>
`;

function server(add: string, extra = "", html = page): string {
  return `import express from "express";
${extra}
const page = ${JSON.stringify(html)};

function add(a, b) {
  ${add}
}

const app = express();
app.get("/app/", (_request, response) => response.type("html").send(page));
app.get("/app/api/sum", (request, response) => response.json({ total: add(request.query.a, request.query.b) }));
app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("sum app listening on " + process.env.PORT));
`;
}

/** The lockfile `npm install express@4` wrote for the sum app once: each side's `npm ci` installs from it, and no repository is installed to be made. */
const lockfile = resolve(import.meta.dirname, "../../test-fixtures/express/sum-app.package-lock.json");

/** The sum app's dependencies, as its lockfile holds them. */
const locked = { express: "^4.22.3" };

const packageJson = (dependencies: Record<string, string>) =>
  `${JSON.stringify({ name: "sum-app", private: true, type: "module", scripts: { start: "node server.js" }, dependencies }, null, 2)}\n`;

export async function makeExpressRepo(root: string): Promise<ExpressRepo> {
  const dir = join(root, "sum-app");
  const signals = join(root, "signals");
  const counter = join(root, "flaky-starts.txt");
  await mkdir(dir, { recursive: true });
  await mkdir(signals, { recursive: true });
  const git = async (...args: string[]) => (await execa("git", args, { cwd: dir })).stdout;
  const write = (file: string, text: string) => writeFile(join(dir, file), text);
  const author = ["-c", "user.name=Sum Dev", "-c", "user.email=dev@example.com"];
  const commit = async (tag: string, message: string, body?: string) => {
    await git("add", "-A");
    await git(...author, "commit", "-qm", message, ...(body === undefined ? [] : ["-m", body]));
    await git("tag", tag);
  };

  await git("init", "-q", "-b", "main");
  await write(".gitignore", "node_modules/\n");
  await write("package.json", packageJson(locked));
  await copyFile(lockfile, join(dir, "package-lock.json"));
  await write("server.js", server("return a + b;"));
  // The first commit names the folder the repository was made in, so its commits are its own: two repositories made in
  // the same second by test files running at once do not share a SHA, nor the default report folders named after them.
  await commit("bug", "Add the sum page", `Made in ${root}.`);

  await write("server.js", server("return Number(a) + Number(b);"));
  await commit("fix", "Add numbers, not strings");

  await write("README.md", "# Sum\n\nAdds two numbers.\n");
  await commit("noop", "Describe the app");

  await git("checkout", "-q", "bug");
  const ownElement = page.replace('document.querySelector("output")', 'document.querySelector("#total")');
  await write("server.js", server("return Number(a) + Number(b);", "", ownElement));
  await commit("broken-fix", "Add numbers, and show the total in its own element");

  const flaky = `import { readFileSync, writeFileSync } from "node:fs";
let starts = 0;
try { starts = Number(readFileSync(${JSON.stringify(counter)}, "utf8")); } catch { starts = 0; }
writeFileSync(${JSON.stringify(counter)}, String(starts + 1));
const buggy = starts % 2 === 0;`;
  await write("server.js", server("return buggy ? a + b : Number(a) + Number(b);", flaky));
  await commit("flaky", "Add numbers on every other start");

  await write("server.js", `throw new Error("SUM_CONFIG is missing: set it before starting the sum app");\n${server("return a + b;")}`);
  await commit("boot-crash", "Read the config at start");

  await write("server.js", server("return a + b;"));
  await rm(join(dir, "package-lock.json"));
  await write("package.json", packageJson({ express: "^4.21.0", "sum-helpers": "file:./vendor/sum-helpers-1.0.0.tgz" }));
  await commit("install-broken", "Depend on the vendored helpers");

  await git("checkout", "-q", "bug");
  const hang = `import { writeFileSync } from "node:fs";
const hangMarker = ${JSON.stringify(join(signals, "hang-"))} + process.pid;`;
  await write(
    "server.js",
    server("return a + b;", hang).replace(
      "const app = express();",
      `const app = express();\napp.get("/app/hang", () => writeFileSync(hangMarker, ""));`,
    ),
  );
  await commit("hang", "Add a page that never loads");

  // A route compiled on demand (Next.js dev compiles /api/chat on its first request): the first request waits, later ones do not.
  const compiles = (add: string) =>
    server(add, "let compiled;").replace(
      "const app = express();",
      `const app = express();
app.use("/app/api", async (request, _response, next) => {
  compiled ??= (console.log("○ Compiling " + request.path + " ..."), new Promise((resolve) => setTimeout(resolve, 5000)));
  await compiled;
  next();
});`,
    );
  await git("checkout", "-q", "bug");
  await write("server.js", compiles("return a + b;"));
  await commit("compile-bug", "Compile the API on its first request");
  await write("server.js", compiles("return Number(a) + Number(b);"));
  await commit("compile-fix", "Add numbers, not strings, in the compiled API");

  await git("checkout", "-q", "main");
  return { dir, signals, git };
}

/**
 * Fills npm's cache with the sum app's dependencies, as a developer's machine has them, with one
 * `npm ci` of the lockfile in a scratch folder: once, before the end-to-end test files start
 * (global-setup.ts). On an empty cache (a fresh CI machine's), several proofs' `npm ci` at once, of
 * one test file or of files running beside each other, each fetch every tarball from the registry
 * side by side, where a fetch that fails or npm's cache racing itself fails a side's install.
 */
export async function fillNpmCache(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), "prove-npm-cache-fill-"));
  try {
    await copyFile(lockfile, join(scratch, "package-lock.json"));
    await writeFile(join(scratch, "package.json"), packageJson(locked));
    await execa("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: scratch, stdin: "ignore" });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
