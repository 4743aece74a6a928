import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, rmdir, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProofReport } from "../index.ts";
import { startTime } from "../../common/ownership.ts";
import type { AppPlace } from "../test-fixtures/concurrency/where.ts";
import { makeExpressRepo, type ExpressRepo } from "./support/express-repo.ts";
import { checkout, reportDir } from "./support/prover.ts";

const fixtures = "prove/test-fixtures/concurrency";
const config = `${fixtures}/playwright.config.ts`;
const total = `${fixtures}/total.e2e.ts`;
const negative = `${fixtures}/negative.e2e.ts`;

let work: string;
let repo: ExpressRepo;
/** Where the scenarios write down each app's port, home and worktree. */
let places: string;
/** Report folders under the invoking checkout's reports/, removed at the end. */
const written: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-concurrency-"));
  repo = await makeExpressRepo(work);
  places = join(work, "places");
  await mkdir(places);
});

afterAll(async () => {
  for (const dir of written) {
    await rm(dir, { recursive: true, force: true });
    // The scenario's folders in reports/, now empty, up to reports/ itself.
    for (let parent = dirname(dir); parent !== join(checkout, "reports"); parent = dirname(parent)) await rmdir(parent).catch(() => {});
  }
  await rm(work, { recursive: true, force: true });
});

/** Starts the real CLI from the invoking checkout against the sum app, with the scenarios told where to write down their apps. */
function startProver(args: ReadonlyArray<string>) {
  return execa("node", ["bin/prove-scenario.mjs", ...args, "--repo", repo.dir, "--config", config], {
    cwd: checkout,
    reject: false,
    stdin: "ignore",
    env: { SCENARIO_CONCURRENCY_PLACES: places },
  });
}

type Prover = ReturnType<typeof startProver>;

/** Resolves once the prover's stderr has shown every pattern, or with the ones it never showed once it has ended. */
function printed(prover: Prover, patterns: ReadonlyArray<RegExp>): Promise<RegExp[]> {
  return new Promise((resolve) => {
    let text = "";
    const missing = () => patterns.filter((pattern) => !pattern.test(text));
    prover.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (missing().length === 0) resolve([]);
    });
    void prover.then(() => resolve(missing()));
  });
}

/** The worktree lock prove-scenario takes for a repository (prove/git/repo-lock.ts). */
const lockOf = (dir: string) => join(tmpdir(), `scenario-prover.lock-${createHash("sha1").update(dir).digest("hex").slice(0, 16)}`);

/** A proof's end as a user sees it: exit code, report.json from stdout and from its folder (which must agree), stderr. */
async function ended(prover: Prover) {
  const run = await prover;
  const report = JSON.parse(run.stdout) as ProofReport;
  const onDisk = JSON.parse(await readFile(join(reportDir(report), "report.json"), "utf8")) as ProofReport;
  return { pid: prover.pid, exitCode: run.exitCode, report, onDisk, dir: reportDir(report), stderr: run.stderr };
}

describe("proofs at once in one repository", () => {
  it("four at once, two of them identical, with locks left by killed proofs and the user running git gc and git worktree prune: each its own verdict, folder, ports, homes and worktrees, and nothing left", async () => {
    const lock = lockOf(await repo.git("rev-parse", "--show-toplevel"));
    // A proof killed while it held the repository's lock left it, with its pid and start time; the pid has since gone to a
    // later process (this test's): the first proof to add a worktree takes it over all the same.
    await mkdir(lock);
    await writeFile(join(lock, "pid"), `${String(process.pid)}.${String(Number(startTime(process.pid)) - 1)}`);
    const out = (name: string) => ["--out", join(work, "reports", name)];
    // The first two are the same proof, into the same default folder under the checkout's reports/.
    const short = async (ref: string) => (await repo.git("rev-parse", ref)).slice(0, 7);
    const folder = join(checkout, "reports", fixtures, "total", `${await short("bug")}-${await short("fix")}`);
    written.push(folder, `${folder}-2`);
    const provers = [
      startProver(["--base", "bug", "--head", "fix", total, "--json"]),
      startProver(["--base", "bug", "--head", "fix", total, "--json"]),
      startProver(["--base", "bug", "--head", "broken-fix", total, "--json", ...out("broken-fix")]),
      startProver(["--base", "fix", "--head", "noop", negative, "--json", ...out("noop")]),
    ] as const;

    // Once every proof has both its worktrees, the user cleans up the repository, and the lock is left again, by a proof
    // killed before it wrote its pid, long ago: the first proof to remove its worktrees takes it over.
    const notShown = await Promise.all(
      provers.map((prover) => printed(prover, [/^base {2}worktree {2}[0-9a-f]{7} {2}\d/m, /^head {2}worktree {2}[0-9a-f]{7} {2}\d/m])),
    );
    expect(notShown).toEqual([[], [], [], []]);
    await repo.git("gc", "--prune=now", "--quiet");
    await repo.git("worktree", "prune");
    await mkdir(lock);
    await utimes(lock, new Date(0), new Date(0));

    const [first, second, broken, noop] = await Promise.all([ended(provers[0]), ended(provers[1]), ended(provers[2]), ended(provers[3])]);
    const all = [first, second, broken, noop];

    expect(all.map(({ exitCode, report }) => [exitCode, report.verdict, report.reasonCode])).toEqual([
      [0, "proved", "proved"],
      [0, "proved", "proved"],
      [1, "not-proved", "fails-on-head"],
      [1, "not-proved", "passes-on-base"],
    ]);
    expect(all.map(({ report, onDisk }) => JSON.stringify(onDisk) === JSON.stringify(report))).toEqual([true, true, true, true]);
    expect(first.report.base.attempts).toMatchObject([{ outcome: "failed", error: { kind: "assertion", location: `${total}:10` } }]);
    expect(noop.report.scenario.title).toBe("adding -1 and 1 shows a total of 0");

    // The identical proofs: one wrote the default folder, the other the one after it, and said so.
    expect([first.dir, second.dir].sort()).toEqual([folder, `${folder}-2`]);
    const moved = first.dir === folder ? second : first;
    expect(moved.stderr).toContain(`\n${folder} is being written by another proof running now (pid `);
    expect(moved.stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(`${folder}-2`, "report.md")}`);
    expect(new Set(all.map(({ dir }) => dir)).size).toBe(4);
    for (const { dir } of all) expect((await readdir(dir)).filter((name) => name.startsWith("."))).toEqual([]);

    // Each side's app: its own port, home and worktree, in its own proof's temporary folder.
    const apps = await Promise.all(
      (await readdir(places)).map(async (file) => JSON.parse(await readFile(join(places, file), "utf8")) as AppPlace),
    );
    expect(apps).toHaveLength(8);
    expect(new Set(apps.map(({ port }) => port)).size).toBe(8);
    expect(new Set(apps.map(({ home }) => home)).size).toBe(8);
    expect(new Set(apps.map(({ root }) => root)).size).toBe(8);
    for (const { pid } of all) {
      const own = apps.filter(({ root }) => root.startsWith(join(tmpdir(), `scenario-prover-${pid}.`)));
      expect(own.map(({ root }) => root.split("/").at(-1)).sort()).toEqual(["base", "head"]);
      expect(own.every(({ home }) => home.startsWith(dirname(own[0]?.root ?? "?")))).toBe(true);
    }

    // Nothing of theirs is left: worktrees, temporary folders, the repository's lock; and the repository is whole.
    expect((await repo.git("worktree", "list", "--porcelain")).split("\n\n")).toHaveLength(1);
    const left = (await readdir(tmpdir())).filter((name) => all.some(({ pid }) => name.startsWith(`scenario-prover-${pid}.`)));
    expect(left).toEqual([]);
    expect(existsSync(lock)).toBe(false);
    const fsck = await execa("git", ["fsck", "--full", "--strict"], { cwd: repo.dir, reject: false });
    expect([fsck.exitCode, fsck.stderr.split("\n").filter((line) => /^(error|missing|broken|fatal)/.test(line))]).toEqual([0, []]);
  });
});
