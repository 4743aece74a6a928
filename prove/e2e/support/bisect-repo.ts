import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { writeScenarioFolder } from "./prover.ts";

/**
 * A repository with a history to bisect: tag `v1` holds an app as shipped, then `length` commits
 * follow on `main`, each a harmless README line but for the commit `bug` (1-based from v1), which
 * brings the bug in, and the commits `broken`, which make the app depend on a package that does
 * not exist (so the frozen install fails at once), each undone by the commit after it. Every
 * commit has its own author date; the bug's commit alone is by "Robin Refactor".
 */
export interface BisectRepo {
  readonly dir: string;
  /** v1's SHA, then each commit's after it: `shas[i]` is commit i. */
  readonly shas: ReadonlyArray<string>;
  readonly subjects: ReadonlyArray<string>;
  readonly git: (...args: string[]) => Promise<string>;
}

export interface BisectHistory {
  readonly length: number;
  readonly bug: number;
  readonly broken: ReadonlyArray<number>;
}

/** A dependency no registry has: pnpm's frozen install stops at once, the lockfile not matching package.json. */
const missing = "@scenario-prover-bisect/never-published";

export const brokenSubject = "sum-app: depend on the shared helpers";
export const unbrokenSubject = "sum-app: drop the helpers again, they are not published";
export const bugAuthor = "Robin Refactor";
/** The subject of the commit that brings the bug in. */
export const bugSubject = "sum-app: add the numbers as they come";

const sumServer = (add: string) => `import { createServer } from "node:http";

const add = (a, b) => ${add};
createServer((_request, response) => {
  response.setHeader("content-type", "text/html");
  response.end(\`<!doctype html><title>Sum</title><h1>Sum</h1><output>Total: \${add("1", "2")}</output>\`);
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

/**
 * The light app's scenario and config, in `dir` (outside the repository or untracked in it): the page shows a total
 * of 3, a screenshot before the check and one after it. Returns their absolute paths.
 */
export const writeLightScenario = (dir: string) =>
  writeScenarioFolder(dir, {
    app: `{ root: ".", start: "node server.mjs", ready: { path: "/" } }`,
    file: "sum.e2e.ts",
    body: `test("the total of 1 and 2 is 3", async ({ app, page }) => {
  await app.open("/");
  await app.screenshot("opened");
  await expect(page.locator("output")).toHaveText("Total: 3");
  await app.screenshot("checked");
});
`,
  });

/**
 * The lightest app a bisection's outcome needs: one node:http page showing the total of 1 and 2,
 * with no dependencies (pnpm still installs it, from a lockfile), whose bug concatenates them.
 */
export async function makeLightBisectRepo(dir: string, history: BisectHistory): Promise<BisectRepo> {
  await mkdir(dir, { recursive: true });
  const manifest = join(dir, "package.json");
  const app = { name: "sum-app", private: true, type: "module" };
  const shipped = `${JSON.stringify(app, null, 2)}\n`;
  await writeFile(manifest, shipped);
  await writeFile(join(dir, ".gitignore"), "node_modules/\n");
  await writeFile(join(dir, "README.md"), "# Sum\n");
  await writeFile(join(dir, "server.mjs"), sumServer("Number(a) + Number(b)"));
  await execa("pnpm", ["install", "--lockfile-only", "--prefer-offline", "--ignore-scripts"], { cwd: dir, stdin: "ignore" });
  const withMissing = JSON.stringify({ ...app, dependencies: { [missing]: "^1.0.0" } }, null, 2);
  let identity: Record<string, string> = {};
  const git = async (...args: string[]) => (await execa("git", args, { cwd: dir, env: identity })).stdout;
  const shas: string[] = [];
  const subjects: string[] = [];
  const commit = async (index: number, subject: string, author = "Sam Steady") => {
    identity = {
      GIT_AUTHOR_NAME: author,
      GIT_AUTHOR_EMAIL: `${author.split(" ")[0]?.toLowerCase() ?? "dev"}@example.com`,
      GIT_AUTHOR_DATE: `2026-11-${String(1 + Math.floor(index / 24)).padStart(2, "0")}T${String(index % 24).padStart(2, "0")}:00:00+01:00`,
      GIT_COMMITTER_NAME: author,
      GIT_COMMITTER_EMAIL: "dev@example.com",
    };
    await git("add", "--all");
    await git("-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", "commit", "--quiet", "--no-verify", "-m", subject);
    shas.push(await git("rev-parse", "HEAD"));
    subjects.push(subject);
  };
  await git("init", "--quiet", "-b", "main");
  await commit(0, "sum-app as shipped");
  await git("tag", "v1");
  for (let index = 1; index <= history.length; index++) {
    if (index === history.bug) {
      await writeFile(join(dir, "server.mjs"), sumServer("a + b"));
      await commit(index, bugSubject, bugAuthor);
    } else if (history.broken.includes(index)) {
      await writeFile(manifest, `${withMissing}\n`);
      await commit(index, brokenSubject);
    } else if (history.broken.includes(index - 1)) {
      await writeFile(manifest, shipped);
      await commit(index, unbrokenSubject);
    } else {
      await appendFile(join(dir, "README.md"), `- note ${index}\n`);
      await commit(index, `docs: note ${index}`);
    }
  }
  return { dir, shas, subjects, git };
}
