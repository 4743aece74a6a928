import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as Effect from "effect/Effect";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { progressLayer } from "../progress/progress-live.ts";
import { renderMarkdown } from "../report/markdown.ts";
import type { ProofReport } from "../report/schema.ts";
import { renderSummary } from "../summary/markdown.ts";
import type { ProofSummary } from "../summary/schema.ts";
import { publishReport, type PublishError, type PublishOptions } from "./index.ts";
import { prMarker } from "./pr-markdown.ts";
import { linkTargets, noSteps, writeSampleReport, type SampleProof } from "./test-support.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

// No global or system git config: the checkout has no commit identity, as on a fresh CI runner.
beforeAll(async () => {
  const home = await mkdtemp(join(tmpdir(), "prove-publish-home-"));
  await writeFile(join(home, "gitconfig"), "");
  vi.stubEnv("GIT_CONFIG_GLOBAL", join(home, "gitconfig"));
  vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
  scratch.push(home);
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const branch = "scenario-proofs";
const imageUrl = "https://img.example/proofs/";
const shas = { baseSha: "1111111".padEnd(40, "a"), headSha: "2222222".padEnd(40, "b") };
const stop: SampleProof = { file: "scenarios/chat/stop.e2e.ts", title: "Stop button goes away", ...shas };
const cart: SampleProof = { file: "scenarios/cart.spec.ts", title: "Cart keeps its items", ...shas };
const stopFolder = "scenarios/chat/stop/1111111-2222222";
const cartFolder = "scenarios/cart/1111111-2222222";
const imagesOf = (folder: string) =>
  [
    "comparison.png",
    "images/base-opened.png",
    "images/base-streaming.png",
    "images/failure-base.png",
    "images/head-opened.png",
    "images/head-streaming.png",
  ].map((path) => `${folder}/${path}`);

const git = async (cwd: string, ...args: string[]) => (await execa("git", args, { cwd })).stdout;

/** The user's checkout with a commit on main, pushed to `origin`, a bare repository added by file URL. */
async function setup() {
  const root = await mkdtemp(join(tmpdir(), "prove-publish-"));
  scratch.push(root);
  const checkout = join(root, "checkout");
  const remote = join(root, "remote.git");
  await mkdir(checkout);
  await git(checkout, "init", "-q", "-b", "main");
  await writeFile(join(checkout, "app.txt"), "v1\n");
  await git(checkout, "add", ".");
  await git(checkout, "-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "-qm", "first");
  await git(root, "init", "-q", "--bare", remote);
  await git(checkout, "remote", "add", "origin", pathToFileURL(remote).href);
  await git(checkout, "push", "-q", "origin", "main");
  return { root, checkout, remote, remoteUrl: pathToFileURL(remote).href };
}

/** Everything of the checkout publishing must not change; git reads it without taking optional locks (no index refresh). */
async function snapshot(checkout: string) {
  const index = await readFile(join(checkout, ".git/index"));
  const read = async (...args: string[]) => (await execa("git", args, { cwd: checkout, env: { GIT_OPTIONAL_LOCKS: "0" } })).stdout;
  return {
    index: index.toString("base64"),
    config: await readFile(join(checkout, ".git/config"), "utf8"),
    head: await readFile(join(checkout, ".git/HEAD"), "utf8"),
    refs: await read("for-each-ref"),
    status: await read("status", "--porcelain"),
    stash: await read("stash", "list"),
    worktrees: await read("worktree", "list", "--porcelain"),
    fetchHead: existsSync(join(checkout, ".git/FETCH_HEAD")),
  };
}

function publish(
  options: Pick<PublishOptions, "reportDir" | "repo"> & Partial<PublishOptions>,
  write: (line: string) => void = () => undefined,
) {
  return publishReport({ remote: "origin", branch, imageUrl, ...options }).pipe(Effect.provide(progressLayer(write)));
}

const branchFiles = async (remote: string) =>
  (await git(remote, "ls-tree", "-r", "--name-only", branch)).split("\n").filter((line) => line !== "");
/** Each commit of the branch, newest first, with its parents. */
const history = async (remote: string) => (await git(remote, "rev-list", "--parents", branch)).split("\n").map((line) => line.split(" "));

/** Another publisher: a commit adding `path` on the branch's tip, written straight into the bare remote. */
function advanceRemote(remote: string, path: string) {
  const env = { ...process.env, GIT_INDEX_FILE: join(remote, "other-publisher-index") };
  const run = (args: string[], input?: string) => execFileSync("git", args, { cwd: remote, env, input, encoding: "utf8" }).trim();
  const tip = run(["for-each-ref", "--format=%(objectname)", `refs/heads/${branch}`]);
  run(tip === "" ? ["read-tree", "--empty"] : ["read-tree", tip]);
  run(["update-index", "--add", "--cacheinfo", `100644,${run(["hash-object", "-w", "--stdin"], `${path}\n`)},${path}`]);
  const tree = run(["write-tree"]);
  const parent = tip === "" ? [] : ["-p", tip];
  const commit = run([
    "-c",
    "user.name=other",
    "-c",
    "user.email=other@example.com",
    "commit-tree",
    tree,
    ...parent,
    "-m",
    `other ${path}`,
  ]);
  run(["update-ref", `refs/heads/${branch}`, commit]);
}

describe("publish", () => {
  it("pushes exactly the report's images to <scenario>/<base7>-<head7>/ on an orphan branch, writes pr.md, and leaves the checkout as it was", async () => {
    const { checkout, remote, remoteUrl } = await setup();
    const reportDir = join(checkout, "reports/scenarios/chat/stop/1111111-2222222");
    await writeSampleReport(reportDir, stop);
    const before = await snapshot(checkout);
    const lines: string[] = [];

    const result = await Effect.runPromise(publish({ reportDir, repo: checkout }, (line) => lines.push(line)));

    expect(await snapshot(checkout)).toEqual(before);
    const tip = await git(remote, "rev-parse", branch);
    expect(result).toEqual({
      prFile: join(reportDir, "pr.md"),
      branch,
      commit: tip,
      changed: true,
      files: 6,
      urlBase: "https://img.example/proofs",
    });
    expect(await branchFiles(remote)).toEqual(imagesOf(stopFolder));
    for (const path of imagesOf(stopFolder)) {
      expect(await git(remote, "rev-parse", `${branch}:${path}`)).toBe(
        await git(checkout, "hash-object", join(reportDir, path.slice(stopFolder.length + 1))),
      );
    }
    expect(await git(remote, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%s", branch)).toBe(
      "scenario-prover <scenario-prover@users.noreply.github.com>|scenario-prover <scenario-prover@users.noreply.github.com>|Publish scenarios/chat/stop.e2e.ts 1111111..2222222",
    );
    expect(await history(remote)).toEqual([[tip]]);
    expect((await execa("git", ["merge-base", "main", branch], { cwd: remote, reject: false })).exitCode).toBe(1);
    expect(lines).toEqual([
      `publish: pushing 6 files to ${branch} of ${remoteUrl}`,
      `publish: pushed 6 files to ${branch} (${tip.slice(0, 7)})`,
    ]);

    const pr = await readFile(result.prFile, "utf8");
    expect(pr.split("\n").slice(0, 2)).toEqual([prMarker, "## ✅ Proved: Stop button goes away"]);
    expect(pr).toContain(`<img src="https://img.example/proofs/${stopFolder}/images/base-opened.png" width="400" alt="base: opened">`);
    expect(pr).toContain("`base/trace.zip` (in the proof's folder or CI artifact)");
    expect(linkTargets(pr).filter((target) => !target.startsWith(`https://img.example/proofs/${stopFolder}/`))).toEqual([]);
  });

  it("pushes nothing when the branch already holds exactly these files", async () => {
    const { checkout, remote } = await setup();
    const reportDir = join(checkout, "reports/stop");
    await writeSampleReport(reportDir, stop);
    const first = await Effect.runPromise(publish({ reportDir, repo: checkout }));
    const lines: string[] = [];

    const again = await Effect.runPromise(publish({ reportDir, repo: checkout }, (line) => lines.push(line)));

    expect(again).toEqual({ ...first, changed: false });
    expect(await history(remote)).toEqual([[first.commit]]);
    expect(lines).toEqual([`publish: ${branch} already holds these 6 files (${first.commit?.slice(0, 7)}); nothing pushed`]);
  });

  it("keeps other proofs' folders and replaces the proof's own folder by exactly its new files", async () => {
    const { checkout, remote } = await setup();
    const stopDir = join(checkout, "reports/stop");
    const cartDir = join(checkout, "reports/cart");
    await writeSampleReport(stopDir, stop);
    await writeSampleReport(cartDir, cart);
    await Effect.runPromise(publish({ reportDir: stopDir, repo: checkout }));
    await Effect.runPromise(publish({ reportDir: cartDir, repo: checkout }));
    await unlink(join(stopDir, "images/failure-base.png"));
    await writeFile(join(stopDir, "images/head-finished.png"), await readFile(join(stopDir, "images/head-opened.png")));

    const result = await Effect.runPromise(publish({ reportDir: stopDir, repo: checkout }));

    expect(result.files).toBe(6);
    const stopNow = imagesOf(stopFolder)
      .filter((path) => !path.endsWith("failure-base.png"))
      .concat(`${stopFolder}/images/head-finished.png`);
    expect(await branchFiles(remote)).toEqual([...imagesOf(cartFolder), ...stopNow].sort());
    const commits = await history(remote);
    expect(commits.map((commit) => commit.length)).toEqual([2, 2, 1]);
    expect(commits.map((commit) => commit[1])).toEqual([commits[1]?.[0], commits[2]?.[0], undefined]);
  });

  it("puts two proofs published at once both on the branch, in a linear history", async () => {
    const { checkout, remote } = await setup();
    const stopDir = join(checkout, "reports/stop");
    const cartDir = join(checkout, "reports/cart");
    await writeSampleReport(stopDir, stop);
    await writeSampleReport(cartDir, cart);
    const before = await snapshot(checkout);

    const results = await Promise.all([stopDir, cartDir].map((reportDir) => Effect.runPromise(publish({ reportDir, repo: checkout }))));

    expect(results.map((result) => result.changed)).toEqual([true, true]);
    expect(await branchFiles(remote)).toEqual([...imagesOf(cartFolder), ...imagesOf(stopFolder)].sort());
    const commits = await history(remote);
    expect(commits.map((commit) => commit.length)).toEqual([2, 1]);
    expect(commits[0]?.[1]).toBe(commits[1]?.[0]);
    expect(commits.map((commit) => commit[0]).sort()).toEqual(results.map((result) => result.commit).sort());
    expect(await snapshot(checkout)).toEqual(before);
  });

  it("rebuilds a push lost to another publisher on the branch's new tip and pushes it, keeping the other's files", async () => {
    const { checkout, remote } = await setup();
    const reportDir = join(checkout, "reports/stop");
    await writeSampleReport(reportDir, stop);
    const lines: string[] = [];
    const write = (line: string) => {
      lines.push(line);
      if (line.startsWith("publish: pushing") && lines.filter((seen) => seen.startsWith("publish: pushing")).length === 1)
        advanceRemote(remote, "other.txt");
    };

    const result = await Effect.runPromise(publish({ reportDir, repo: checkout }, write));

    expect(lines.filter((line) => !line.startsWith("publish: pushing"))).toEqual([
      `publish: push rejected (${branch} moved); fetching and retrying`,
      `publish: pushed 6 files to ${branch} (${result.commit?.slice(0, 7)})`,
    ]);
    expect(await branchFiles(remote)).toEqual(["other.txt", ...imagesOf(stopFolder)]);
    const commits = await history(remote);
    expect(commits.map((commit) => commit.length)).toEqual([2, 1]);
    expect(await git(remote, "log", "--format=%s", branch)).toBe("Publish scenarios/chat/stop.e2e.ts 1111111..2222222\nother other.txt");
  });

  it("fails naming the branch after five pushes each lost to another publisher, never forcing", async () => {
    const { checkout, remote, remoteUrl } = await setup();
    const reportDir = join(checkout, "reports/stop");
    await writeSampleReport(reportDir, stop);
    const lines: string[] = [];
    const write = (line: string) => {
      lines.push(line);
      if (line.startsWith("publish: pushing")) advanceRemote(remote, `other-${lines.length}.txt`);
    };

    const error = await Effect.runPromise(Effect.flip(publish({ reportDir, repo: checkout }, write)));

    expect(error._tag).toBe("BranchKeptMoving");
    expect(error.message).toBe(
      `Branch ${branch} of ${remoteUrl} moved before each of 5 pushes (others are publishing to it at the same time). Run publish again, or pass --branch <name> of a branch nobody else writes.`,
    );
    expect(lines.filter((line) => line.includes("retrying")).length).toBe(4);
    expect((await history(remote)).map((commit) => commit.length)).toEqual([2, 2, 2, 2, 1]);
    expect(await git(remote, "log", "--format=%s", branch)).not.toContain("Publish");
    expect(existsSync(join(reportDir, "pr.md"))).toBe(false);
  });

  it("publishes every scenario of a summary folder in one commit, and pr.md holds the summary and each report", async () => {
    const { checkout, remote } = await setup();
    const dir = join(checkout, "reports/run");
    await writeSampleReport(join(dir, "scenarios/chat/stop"), stop);
    await writeSampleReport(join(dir, "scenarios/cart"), { ...cart });
    const rows = [
      { proof: cart, dir: "scenarios/cart", verdict: "not-proved" as const },
      { proof: stop, dir: "scenarios/chat/stop", verdict: "proved" as const },
    ];
    const summary: ProofSummary = {
      schema: "scenario-proof-summary/v1",
      verdict: "not-proved",
      exitCode: 1,
      reason: "1 of 2 scenarios proved.",
      base: { ref: "main", sha: shas.baseSha, subject: "Add streaming" },
      head: { ref: "fix", sha: shas.headSha, subject: "Fix" },
      shard: null,
      scenarios: rows.map((row) => ({
        file: row.proof.file,
        title: row.proof.title,
        verdict: row.verdict,
        exitCode: row.verdict === "proved" ? 0 : 1,
        reasonCode: row.verdict === "proved" ? "proved" : "passes-on-base",
        reason: "as said",
        dir: row.dir,
        report: `${row.dir}/report.md`,
        redactions: { environment: 0, secretShaped: 0 },
      })),
      counts: { proved: 1, notProved: 1, couldNotRun: 0 },
      redactions: { environment: 0, secretShaped: 0 },
      markdown: "summary.md",
      timings: { totalMs: 1000 },
      command: "pnpm prove-scenario --base main --head fix scenarios",
    };
    await writeFile(join(dir, "summary.json"), JSON.stringify(summary));
    const summaryMarkdown = renderSummary(summary);
    await writeFile(join(dir, "summary.md"), summaryMarkdown);

    const result = await Effect.runPromise(publish({ reportDir: dir, repo: checkout }));

    expect(result.files).toBe(12);
    expect(await branchFiles(remote)).toEqual([...imagesOf(cartFolder), ...imagesOf(stopFolder)].sort());
    expect(await git(remote, "log", "--format=%s", branch)).toBe("Publish 2 scenarios 1111111..2222222");
    const pr = await readFile(join(dir, "pr.md"), "utf8");
    expect(pr.split("\n").slice(0, 2)).toEqual([prMarker, summaryMarkdown.split("\n")[0]]);
    for (const row of rows) {
      const name = `${row.proof.file} › ${row.proof.title}`;
      expect(summaryMarkdown).toContain(`[${name}](${row.dir}/report.md)`);
      expect(pr).not.toContain(`[${name}]`);
      expect(pr.split("\n").filter((line) => line.startsWith("|") && line.includes(name)).length).toBe(1);
    }
    expect(pr.match(/^<details.*$/gm)).toEqual([
      "<details open><summary>not-proved: scenarios/cart.spec.ts › Cart keeps its items</summary>",
      "<details><summary>proved: scenarios/chat/stop.e2e.ts › Stop button goes away</summary>",
    ]);
    expect(pr).toContain(`<img src="https://img.example/proofs/${cartFolder}/images/head-opened.png"`);
    expect(pr).toContain("`scenarios/chat/stop/base/trace.zip` (in the proof's folder or CI artifact)");
    const targets = linkTargets(pr);
    expect(targets.length).toBe(22);
    expect(
      targets.filter((target) => !/^https:\/\/img\.example\/proofs\/scenarios\/(cart|chat\/stop)\/1111111-2222222\//.test(target)),
    ).toEqual([]);
  });

  it("writes pr.md and touches no remote for a proof that took no screenshot", async () => {
    const { checkout, remote } = await setup();
    const reportDir = join(checkout, "reports/bad-ref");
    await mkdir(reportDir, { recursive: true });
    const report: ProofReport = {
      schema: "scenario-proof/v1",
      verdict: "could-not-run",
      exitCode: 2,
      reasonCode: "bad-ref",
      reason: "--base nope does not name a commit.",
      scenario: { file: stop.file, title: null, sha256: null },
      base: { ref: "nope", sha: null, subject: null, attempts: [], screenshots: [], trace: null, serverLog: null },
      head: { ref: "fix", sha: shas.headSha, subject: "Fix", attempts: [], screenshots: [], trace: null, serverLog: null },
      dir: "reports/bad-ref",
      comparisonImage: null,
      differences: { threshold: 0.001, tolerance: 16, labels: [] },
      markdown: "report.md",
      timings: { totalMs: 10, listingMs: null, base: noSteps, head: noSteps, reportMs: 0 },
      command: "pnpm prove-scenario --base nope --head fix scenarios/chat/stop.e2e.ts",
      redactions: { environment: 0, secretShaped: 0 },
    };
    await writeFile(join(reportDir, "report.json"), JSON.stringify(report));
    await writeFile(join(reportDir, "report.md"), renderMarkdown({ report, rows: [], errors: [] }));
    const lines: string[] = [];

    const result = await Effect.runPromise(publish({ reportDir, repo: checkout }, (line) => lines.push(line)));

    expect(result).toEqual({
      prFile: join(reportDir, "pr.md"),
      branch,
      commit: null,
      changed: false,
      files: 0,
      urlBase: "https://img.example/proofs",
    });
    expect(await git(remote, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/main");
    expect(lines).toEqual([`publish: no images to publish; wrote ${result.prFile}`]);
    const pr = await readFile(result.prFile, "utf8");
    expect(pr.split("\n").slice(0, 2)).toEqual([prMarker, "## ⚠️ Could not run: scenarios/chat/stop.e2e.ts"]);
    expect(linkTargets(pr)).toEqual([]);
  });

  type Setup = Awaited<ReturnType<typeof setup>>;
  it.each<[string, (ctx: Setup) => Promise<Partial<PublishOptions>>, PublishError["_tag"], (ctx: Setup) => RegExp | string]>([
    [
      "a remote the checkout does not have",
      async () => ({ remote: "upstream" }),
      "UnknownRemote",
      ({ checkout }) =>
        `${checkout} has no remote named "upstream" (error: No such remote 'upstream'). List its remotes with \`git -C ${checkout} remote -v\` and pass the one to publish to with --remote <name>.`,
    ],
    [
      "a remote off GitHub without --image-url, its token never shown",
      async ({ checkout }) => {
        await git(checkout, "remote", "add", "lab", "https://oauth2:s3cr3t-T0ken@gitlab.example.com/acme/shop.git");
        return { remote: "lab", imageUrl: undefined };
      },
      "ImageUrlNeeded",
      () =>
        `Remote "lab" (https://gitlab.example.com/acme/shop.git) is not on GitHub, so the URL its files are served at is unknown. ` +
        `Pass --image-url <base>, the URL under which the files of branch ${branch} are served, e.g. --image-url https://gitlab.example.com/owner/repo/-/raw/${branch}`,
    ],
    [
      "a push the remote refuses",
      async ({ checkout, remoteUrl, root }) => {
        await git(checkout, "remote", "add", "mirror", remoteUrl);
        await git(checkout, "remote", "set-url", "--push", "mirror", pathToFileURL(join(root, "missing.git")).href);
        return { remote: "mirror" };
      },
      "PushFailed",
      ({ root }) =>
        new RegExp(
          `^Could not push branch ${branch} to ${pathToFileURL(join(root, "missing.git")).href}: .*missing\\.git.*\\. ` +
            `Check that you may push to it .*, or pass --remote <name> of a remote you can push to, or --branch <name> of a branch you may write\\.$`,
        ),
    ],
  ])("stops for %s, saying what to change, with nothing pushed", async (_case, options, tag, message) => {
    const ctx = await setup();
    const reportDir = join(ctx.checkout, "reports/stop");
    await writeSampleReport(reportDir, stop);
    const overrides = await options(ctx);

    const error = await Effect.runPromise(Effect.flip(publish({ reportDir, repo: ctx.checkout, ...overrides })));

    expect(error._tag).toBe(tag);
    const expected = message(ctx);
    if (typeof expected === "string") expect(error.message).toBe(expected);
    else expect(error.message).toMatch(expected);
    expect(error.message).not.toContain("s3cr3t");
    expect(await git(ctx.remote, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/main");
    expect(existsSync(join(reportDir, "pr.md"))).toBe(false);
  });

  it("stops naming the folder when it holds no report", async () => {
    const { checkout, root } = await setup();
    const error = await Effect.runPromise(Effect.flip(publish({ reportDir: root, repo: checkout })));
    expect(error.message).toBe(
      `${root} holds no report.json, summary.json, compare.json or bisect.json. Pass the folder a proof wrote (reports/<scenario>/<base7>-<head7>, or the folder given to --out), the folder of a multi-scenario proof holding summary.json, or the folder a comparison or a bisection wrote.`,
    );
  });
});
