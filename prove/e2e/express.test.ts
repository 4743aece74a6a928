import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeExpressRepo, type ExpressRepo } from "./support/express-repo.ts";
import { config, fixtures, prove, repositoryState, startProver, sumScenario } from "./support/prover.ts";

let work: string;
let repo: ExpressRepo;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-express-"));
  repo = await makeExpressRepo(work);
  // A developer's checkout in the middle of work: an edit, an untracked file and a stash.
  await writeFile(join(repo.dir, "notes.txt"), "stashed idea\n");
  await repo.git("add", "notes.txt");
  await repo.git("stash", "push", "-q", "-m", "an idea");
  await writeFile(join(repo.dir, "README.md"), "# Sum\n\nWork in progress.\n");
  await writeFile(join(repo.dir, "scratch.txt"), "untracked\n");
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const out = (name: string) => join(work, "reports", name);
const against = (name: string) => ["--repo", repo.dir, "--config", config, "--out", out(name)];

async function pixels(file: string) {
  return sharp(file).raw().toBuffer();
}

describe("proving a fix in a plain Express repository that does not contain scenario-prover", () => {
  it("proves it: the total is wrong on base and right on head, with both sides' screenshots side by side", async () => {
    const before = await repositoryState(repo.dir);
    const { exitCode, report } = await prove(["--base", "bug", "--head", "fix", sumScenario, ...against("proved")]);

    expect([exitCode, report.verdict, report.reasonCode]).toEqual([0, "proved", "proved"]);
    expect(report.scenario).toMatchObject({ file: sumScenario, title: "adding 1 and 2 shows a total of 3" });
    expect(report.base.attempts).toMatchObject([{ outcome: "failed", error: { kind: "assertion", location: `${sumScenario}:11` } }]);
    expect(report.base.attempts[0]?.error?.message).toContain('Received: "Total: 12"');
    expect(report.head.attempts).toMatchObject([{ outcome: "passed" }]);
    expect(report.base.subject).toBe("Add the sum page");
    expect(report.command).toBe(
      `pnpm prove-scenario --base ${report.base.sha?.slice(0, 12)} --head ${report.head.sha?.slice(0, 12)} ${sumScenario} --repo ${repo.dir} --config ${config}`,
    );

    const markdown = await readFile(join(report.dir, "report.md"), "utf8");
    const rows = markdown.split("\n").filter((line) => line.startsWith("| **"));
    expect(rows.map((row) => row.split(" | ").map((cell) => /src="([^"]+)"/.exec(cell)?.[1] ?? cell.replace(/^\| |\*\*| \|$/g, "")))).toEqual([
      ["filled in", "images/base-filled-in.png", "images/head-filled-in.png"],
      ["after add", "images/base-after-add.png", "images/head-after-add.png"],
      ["total checked", "not reached", "images/head-total-checked.png"],
      ["failure screenshot", "images/failure-base.png", "no failure"],
    ]);
    expect(markdown).toContain(`**Base: assertion** at \`${sumScenario}:11\``);

    for (const shot of [...report.base.screenshots, ...report.head.screenshots]) {
      expect(await sharp(join(report.dir, shot.path)).metadata()).toMatchObject({ width: 1280, height: 720 });
      expect([shot.width, shot.height]).toEqual([1280, 720]);
    }
    const [baseAfterAdd, headAfterAdd] = await Promise.all([
      pixels(join(report.dir, "images/base-after-add.png")),
      pixels(join(report.dir, "images/head-after-add.png")),
    ]);
    expect(baseAfterAdd.equals(headAfterAdd)).toBe(false);
    expect((await sharp(join(report.dir, "comparison.png")).metadata()).width).toBeGreaterThan(1280);
    expect([report.base.trace, report.base.serverLog, report.head.trace]).toEqual(["base/trace.zip", "base/server.log", null]);
    expect(await readFile(join(report.dir, "base/server.log"), "utf8")).toContain("sum app listening on");

    expect(await repositoryState(repo.dir)).toEqual(before);
  });

  it("runs two proofs at once in one repository: a no-op change passes on base, a fix that does not work fails on head", async () => {
    const [noop, broken] = await Promise.all([
      prove(["--base", "fix", "--head", "noop", sumScenario, ...against("noop")]),
      prove(["--base", "bug", "--head", "broken-fix", sumScenario, ...against("broken")]),
    ]);
    expect([noop.exitCode, noop.report.verdict, noop.report.reasonCode]).toEqual([1, "not-proved", "passes-on-base"]);
    expect(noop.report.reason).toBe("The scenario passes on base (fix), so it does not reproduce the bug there; make it fail on base first.");
    expect([broken.exitCode, broken.report.verdict, broken.report.reasonCode]).toEqual([1, "not-proved", "fails-on-head"]);
    expect(broken.report.head.attempts).toMatchObject([{ outcome: "failed", error: { kind: "assertion", location: `${sumScenario}:11` } }]);
  });

  it("answers flaky when base fails on every other run, with --repeat 2", async () => {
    const { exitCode, report } = await prove(["--base", "flaky", "--head", "fix", "--repeat", "2", sumScenario, ...against("flaky")]);
    expect([exitCode, report.verdict, report.reasonCode]).toEqual([1, "not-proved", "flaky"]);
    expect(report.base.attempts.map((attempt) => attempt.outcome).sort()).toEqual(["failed", "passed"]);
    expect(report.head.attempts.map((attempt) => attempt.outcome)).toEqual(["passed", "passed"]);
  });

  it.each([
    ["a ref that does not exist", ["--base", "no-such-ref", "--head", "fix", sumScenario], "bad-ref", undefined, ['--base "no-such-ref" does not name a commit', "git -C"]],
    ["a scenario file that does not exist", ["--base", "bug", "--head", "fix", `${fixtures}/missing.e2e.ts`], "scenario-not-found", undefined, ["there is no file at", "Check the path"]],
    ["a scenario file holding two tests", ["--base", "bug", "--head", "fix", `${fixtures}/two-tests.e2e.ts`], "ambiguous-scenario", undefined, ["Pass --grep <text>", "  - adding 1 and 2 shows 3\n  - adding -1 and 1 shows 0"]],
    ["an install that fails on base", ["--base", "install-broken", "--head", "fix", sumScenario], "base-error", "install", ["`npm install`", "set app.install", "sum-helpers-1.0.0.tgz"]],
    ["an app that crashes before it is ready on base", ["--base", "boot-crash", "--head", "fix", sumScenario], "base-error", "boot", ["[scenario-harness:boot]", "Check app.start", "SUM_CONFIG is missing"]],
    ["a transcript that cannot be loaded", ["--base", "bug", "--head", "fix", `${fixtures}/bad-transcript.e2e.ts`], "base-error", "transcript", ["[scenario-harness:transcript]", "bad-transcript.ndjson:3: this line is not valid JSON", "Fix the line it names"]],
  ])("could not run with %s: exit 2 and a message naming what to change", async (name, args, reasonCode, kind, says) => {
    const { exitCode, report, stderr } = await prove([...args, ...against(name.replaceAll(" ", "-"))]);
    expect([exitCode, report.verdict, report.exitCode, report.reasonCode]).toEqual([2, "could-not-run", 2, reasonCode]);
    const message = kind === undefined ? report.reason : (report.base.attempts[0]?.error?.message ?? "");
    if (kind !== undefined) expect(report.base.attempts).toMatchObject([{ outcome: "error", error: { kind } }]);
    for (const text of says) expect(message).toContain(text);
    expect(stderr.split("\n")).toContainEqual(expect.stringMatching(new RegExp(`^could-not-run \\(exit 2, ${reasonCode}\\): `)));
    expect(stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(report.dir, "report.md")}`);
  });

  it("runs one side for git bisect run: 0 where the scenario passes, 1 where it fails, 125 where it cannot run", async () => {
    const runAt = (ref: string) => startProver(["run", "--at", ref, sumScenario, "--repo", repo.dir, "--config", config]);
    const [fixed, buggy, crashing] = await Promise.all([runAt("fix"), runAt("bug"), runAt("boot-crash")]);
    expect([fixed.exitCode, buggy.exitCode, crashing.exitCode]).toEqual([0, 1, 125]);
    expect(buggy.stderr.trimEnd().split("\n").at(-1)).toMatch(/^[0-9a-f]{7} failed: assertion at prove\/test-fixtures\/express\/sum\.e2e\.ts:11: .* \(exit 1\)$/);
    expect(crashing.stderr).toContain("error: boot");
  });
});
