import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resolveSubmoduleUrl } from "../git/git-live.ts";
import { prove, repositoryState, startProver } from "./support/prover.ts";

const fixtures = "prove/test-fixtures/submodules";
/** The page's scenario in `repo`, under the config whose app.submodules the SUBMODULES variable sets. */
const scenarioIn = (repo: string) => [`${fixtures}/page.e2e.ts`, "--repo", repo, "--config", `${fixtures}/scenarios.config.ts`];

let work: string;
let repo: string;

const server = `import { readFileSync } from "node:fs";
import { createServer } from "node:http";

// Read at start: without the submodule checked out, the app cannot start.
const page = readFileSync("vendor/page/page.html", "utf8");
createServer((request, response) => {
  response.setHeader("content-type", "text/html");
  response.end(page);
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

// A local submodule is cloned over the file protocol, which git allows a submodule only when told.
const fileProtocol = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "protocol.file.allow", GIT_CONFIG_VALUE_0: "always" };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-submodules-"));
  const lib = join(work, "page-lib");
  repo = join(work, "app");
  const git = (cwd: string, ...rest: string[]) =>
    execa("git", ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", ...rest], { cwd, env: fileProtocol });
  await mkdir(lib);
  await mkdir(repo);
  await git(lib, "init", "-q", "-b", "main");
  await writeFile(join(lib, "page.html"), "<!doctype html><title>Page</title><h1>From the submodule</h1>\n");
  await git(lib, "add", "-A");
  await git(lib, "commit", "-qm", "The page");
  // A clone, as a user has it: its .git/config knows nothing of the submodule.
  const origin = join(work, "origin");
  await mkdir(origin);
  await git(origin, "init", "-q", "-b", "main");
  await writeFile(join(origin, "server.mjs"), server);
  await git(origin, "submodule", "add", "-q", "../page-lib", "vendor/page");
  await git(origin, "add", "-A");
  await git(origin, "commit", "-qm", "Serve the page of the submodule");
  await git(work, "clone", "-q", origin, repo);
  await git(repo, "tag", "app");
  await git(repo, "remote", "remove", "origin");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(work, { recursive: true, force: true });
});

describe("submodules", () => {
  it("are checked out in each worktree when app.submodules is true, without touching the repository's .git/config", async () => {
    const before = await repositoryState(repo);
    const config = await readFile(join(repo, ".git", "config"), "utf8");
    vi.stubEnv("SUBMODULES", "true");
    for (const [name, value] of Object.entries(fileProtocol)) vi.stubEnv(name, value);
    const run = await prove(["--base", "app", "--head", "app", ...scenarioIn(repo), "--out", join(work, "with")]);

    expect(run.report.base.attempts.map((attempt) => attempt.outcome)).toEqual(["passed"]);
    expect(run.report.head.attempts.map((attempt) => attempt.outcome)).toEqual(["passed"]);
    expect(run.stderr).toMatch(/base {2}worktree {2}submodules/);
    expect(await readFile(join(repo, ".git", "config"), "utf8")).toBe(config);
    expect(await repositoryState(repo)).toEqual(before);
  });

  it("are not checked out without it: the app cannot start (one side shows it: run --at, 125 where the scenario cannot run)", async () => {
    vi.stubEnv("SUBMODULES", "false");
    const run = await startProver(["run", "--at", "app", ...scenarioIn(repo)]);

    expect(run.exitCode, run.stderr).toBe(125);
    expect(run.stderr).not.toMatch(/worktree {2}submodules/);
    // The line a user sees names what the app died of, not Node's version printed under it.
    expect(run.stderr).toContain(
      `error: boot: HarnessError: [scenario-harness:boot] The app exited with code 1 before it was ready, having thrown "Error: ENOENT: no such file or directory, open 'vendor/page/page.html'".`,
    );
  });

  it("resolves relative URLs as git does: against the origin's URL, an scp-like address, or the repository's folder", () => {
    expect(resolveSubmoduleUrl("../lib.git", "https://git.example/team/app.git")).toBe("https://git.example/team/lib.git");
    expect(resolveSubmoduleUrl("./lib", "https://git.example/team/app")).toBe("https://git.example/team/app/lib");
    expect(resolveSubmoduleUrl("../lib.git", "git@git.example:team/app.git")).toBe("git@git.example:team/lib.git");
    expect(resolveSubmoduleUrl("../lib", "/work/app")).toBe("/work/lib");
    expect(resolveSubmoduleUrl("https://git.example/other/lib.git", "/work/app")).toBe("https://git.example/other/lib.git");
  });
});
