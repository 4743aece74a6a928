import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createZooSandbox, defaultBugId, listBugs, type ZooBug, type ZooSandbox } from "../demo/index.ts";
import type { ProofReport } from "../index.ts";
import type { ProofSummary } from "../summary/schema.ts";
import { checkout, processesMentioning, startProver } from "./support/prover.ts";
import { found, planted, plantDeveloper, textsUnder } from "../test-fixtures/secrets/planted.ts";

const bugs = await listBugs(checkout);
const failedKinds = ["assertion", "timeout", "app-error", "unexpected-request", "unplayed-transcript"];

/**
 * The bugs `demo` proves, each in its own sandbox, both sides at once: its default bug, named by
 * nothing, and the event cut across two reads, three runs a side. A pause between the event's two
 * pieces makes the app read them apart, so base must lose the word and head show it every time.
 */
const demoProofs = [
  { id: defaultBugId, args: [], runs: 1 },
  { id: "event-split-across-reads-dropped", args: ["event-split-across-reads-dropped", "--repeat", "3"], runs: 3 },
] as const;

/**
 * Every other bug in one sandbox, all their fixes reversed on zoo-bugs and applied on zoo-fixes.
 * (With the demo's bug reversed too, its merged tool calls make another scenario's app send
 * requests its transcript does not expect before that scenario's own bug shows.)
 */
const zooBugs = bugs.filter((bug) => bug.options.length === 0 && !demoProofs.some((proof) => proof.id === bug.id));
// A bug with a proof file's options (the performance bug's --faster: prove/e2e/zoo-faster.test.ts) is proved its own way.

let work: string;
let zoo: ZooSandbox;
/** The two shards' runs and summaries, and the merge of both. */
let shards: ReadonlyArray<{ readonly run: Awaited<ReturnType<typeof startProver>>; readonly summary: ProofSummary }>;
let merged: { readonly run: Awaited<ReturnType<typeof startProver>>; readonly summary: ProofSummary };

// Base fails by waiting out an assertion; half the config's 10 s is still ample for head's to pass.
const expectTimeout = ["--expect-timeout", "5000"];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-zoo-"));
  zoo = await createZooSandbox({ bugIds: zooBugs.map((bug) => bug.id), repoRoot: checkout });
  // Every zoo scenario is proved once, in two shards of a proof of several scenarios: the first
  // names them in the zoo's order, the second in reverse, and the slices must not depend on it.
  const proof = ["--repo", zoo.dir, "--base", zoo.base, "--head", zoo.head, "--config", "playwright.config.ts", ...expectTimeout];
  const named = zoo.bugs.map((bug) => bug.scenario);
  const runs = [];
  for (const [index, order] of [
    [1, named],
    [2, [...named].reverse()],
  ] as const) {
    const out = join(work, `shard-${index}`);
    const run = await startProver([...proof, ...order, "--shard", `${index}/2`, "--out", out, "--json"]);
    runs.push({ run, summary: JSON.parse(await readFile(join(out, "summary.json"), "utf8")) as ProofSummary });
  }
  shards = runs;
  const run = await startProver(["merge", join(work, "shard-2"), join(work, "shard-1"), "--out", join(work, "merged"), "--json"]);
  merged = { run, summary: JSON.parse(await readFile(join(work, "merged", "summary.json"), "utf8")) as ProofSummary };
  // Two proofs of two zoo scenarios each, four Playwright runs apiece on two cores: minutes, not seconds.
}, 600_000);

afterAll(async () => {
  await zoo.dispose();
  await rm(work, { recursive: true, force: true });
});

/** More pixels than a blinking text caret or a repainted glyph: a change a person sees. */
const visibleChange = 500;

/** How many pixels of two screenshots of one size differ: sharp's difference blend, thresholded to changed or not. */
async function differingPixels(dir: string, a: string, b: string): Promise<number> {
  const second = await sharp(join(dir, b)).removeAlpha().png().toBuffer();
  const difference = await sharp(join(dir, a))
    .removeAlpha()
    .composite([{ input: second, blend: "difference" }])
    .png()
    .toBuffer();
  const { width = 0, height = 0 } = await sharp(difference).metadata();
  // stats() reads its input, not the pipeline's output, so the thresholded image is made first.
  const thresholded = await sharp(difference).threshold(1).png().toBuffer();
  const [changed] = (await sharp(thresholded).stats()).channels;
  return Math.round(((changed?.mean ?? 0) / 255) * width * height);
}

/** report.md's table: one row per label, each cell the image it shows or its text. */
async function markdownRows(dir: string): Promise<string[][]> {
  const markdown = await readFile(join(dir, "report.md"), "utf8");
  return markdown
    .split("\n")
    .filter((line) => line.startsWith("| **"))
    .map((row) => row.split(" | ").map((cell) => /src="([^"]+)"/.exec(cell)?.[1] ?? cell.replace(/^\| |\*\*| \|$/g, "")));
}

/** The checks every zoo bug's report must pass, however it was proved. */
async function expectProvedBug(
  out: string,
  report: ProofReport,
  bug: ZooBug,
  refs: { readonly base: string; readonly head: string },
  runs = 1,
  progress?: string,
) {
  // On a wrong verdict, the proof's progress says which step went wrong, and how.
  expect([report.verdict, report.exitCode, report.reasonCode], progress).toEqual(["proved", 0, "proved"]);
  expect(report.scenario.file).toBe(bug.scenario);
  // Every run of base fails at the same place, and every run of head passes.
  const [failure] = report.base.attempts;
  expect(report.base.attempts).toEqual(
    Array.from({ length: runs }, () =>
      expect.objectContaining({
        outcome: "failed",
        error: expect.objectContaining({ kind: failure?.error?.kind, location: failure?.error?.location }),
      }),
    ),
  );
  expect(failure?.error?.location).toMatch(new RegExp(`^${bug.scenario}:\\d+$`));
  expect(failedKinds).toContain(failure?.error?.kind);
  expect(report.reason).toContain(
    `The scenario fails on base (${refs.base}) with ${failure?.error?.kind} at ${failure?.error?.location}: `,
  );
  expect(report.reason).toContain("Base failed by waiting out the expect timeout (5000 ms)");
  expect(report.head.attempts).toEqual(Array.from({ length: runs }, () => expect.objectContaining({ outcome: "passed" })));

  // Base stopped at its failure, so its labels are the first of head's; the rest were not reached.
  const baseLabels = report.base.screenshots.map((shot) => shot.label);
  const headLabels = report.head.screenshots.map((shot) => shot.label);
  expect(baseLabels.length).toBeGreaterThan(0);
  expect(headLabels.length).toBeGreaterThan(baseLabels.length);
  expect(headLabels.slice(0, baseLabels.length)).toEqual(baseLabels);
  // Each label base reached has a difference; base's failure sits beside head's first label base did not reach, in no row of its own.
  expect(report.differences.labels.map((difference) => [difference.label, difference.path])).toEqual(
    report.base.screenshots.map((base) => [base.label, base.path.replace("images/base-", "images/diff-")]),
  );
  expect(await markdownRows(out)).toEqual(
    report.head.screenshots.map((head, index) => {
      if (index < baseLabels.length)
        return [head.label, report.base.screenshots[index]?.path, head.path, report.differences.labels[index]?.path];
      // Base's failure screenshot is compared with head's screenshot of the label beside it.
      return [
        head.label,
        index === baseLabels.length ? "images/failure-base.png" : "not reached",
        head.path,
        index === baseLabels.length ? "images/failure-base-diff.png" : "—",
      ];
    }),
  );
  const markdown = await readFile(join(out, "report.md"), "utf8");
  expect(markdown).toContain(`**Base: ${failure?.error?.kind}** at \`${failure?.error?.location}\``);
  expect(markdown).toContain("```sh\n" + report.command + "\n```");

  // Base shows the bug where head does not: at a label both took, or in base's failure screenshot against head's
  // screenshot of the step base never reached (most zoo scenarios take their common labels before the bug shows).
  const unreached = report.head.screenshots[baseLabels.length];
  if (unreached === undefined) throw new Error("head took no screenshot after base's last");
  const failureShot = {
    label: `failure against ${unreached.label}`,
    path: "images/failure-base.png",
    width: unreached.width,
    height: unreached.height,
  };
  for (const shot of [...report.base.screenshots, ...report.head.screenshots, failureShot]) {
    expect(await sharp(join(out, shot.path)).metadata(), shot.path).toMatchObject({ width: shot.width, height: shot.height });
  }
  const pairs = [
    ...report.base.screenshots.map((base, index) => [base.label, base.path, report.head.screenshots[index]?.path ?? ""] as const),
    [failureShot.label, failureShot.path, unreached.path] as const,
  ];
  const changes = Object.fromEntries(
    await Promise.all(pairs.map(async ([label, base, head]) => [label, await differingPixels(out, base, head)] as const)),
  );
  expect(Math.max(...Object.values(changes)), `pixels that differ between base and head: ${JSON.stringify(changes)}`).toBeGreaterThan(
    visibleChange,
  );
  expect((await sharp(join(out, "comparison.png")).metadata()).width).toBeGreaterThan(1280);
}

/** How many times a side's install step ran, from the progress lines. */
const installs = (stderr: string, side: string) =>
  stderr.split("\n").filter((line) => line.startsWith(`${side.padEnd(5)} install `)).length;

describe("prove-scenario demo, run by a developer with secrets in the environment, ~/.npmrc and ~/.gitconfig", () => {
  beforeAll(() => plantDeveloper(join(work, "home")));
  afterAll(() => vi.unstubAllEnvs());

  it.each(demoProofs)(
    "$id: proved in its own sandbox, $runs run(s) a side, base failing in its scenario and head passing every time; none of the secrets reaches its report, and it leaves nothing behind",
    async ({ id, args, runs }) => {
      const bug = bugs.find((candidate) => candidate.id === id);
      if (bug === undefined) throw new Error(`no zoo bug ${id}`);
      const out = join(work, `demo-${id}`);
      const prover = startProver(["demo", ...args, "--out", out, "--json", ...expectTimeout]);
      const run = await prover;

      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(`report: ${join(out, "report.md")}`);
      const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as ProofReport;
      expect(JSON.parse(run.stdout)).toEqual(report);
      expect([report.base.subject, report.head.subject]).toEqual([`agent-chat: ${bug.title}`, `Fix: ${bug.title}`]);
      expect(report.command).toBe(`pnpm prove-scenario demo ${bug.id}${runs > 1 ? ` --repeat ${runs}` : ""}`);
      await expectProvedBug(out, report, bug, { base: `bug/${bug.id}`, head: `fix/${bug.id}` }, runs, run.stderr);

      // Every file of the report folder, each trace's files decompressed, each image's metadata, and the prover's output.
      const texts = [...(await textsUnder(out)), { file: "the prover's output", text: `${run.stdout}${run.stderr}` }];
      expect(texts.filter(({ file }) => file.includes("trace.zip:")).length).toBeGreaterThan(3);
      expect(found(texts, planted, "PLANTED")).toEqual([]);
      expect(report.redactions).toEqual({ environment: 0, secretShaped: 0 });

      // The sandbox (in scenario-prover-<pid>.<start>-demo-…), its worktrees and the apps' homes (in scenario-prover-<pid>.<start>-…) are gone.
      expect((await readdir(tmpdir())).filter((name) => name.startsWith(`scenario-prover-${prover.pid}.`))).toEqual([]);
      expect(await processesMentioning(`scenario-prover-${prover.pid}.`)).toEqual([]);
    },
  );
});

describe("every other bug of the zoo, in one proof of several scenarios cut into two shards", () => {
  it("installs each side once per shard, slices the scenarios by file whatever order they were named in, and merges both shards into one summary", async () => {
    const sorted = [...zoo.bugs.map((bug) => bug.scenario)].sort();
    for (const [index, { run, summary }] of shards.entries()) {
      expect(run.exitCode, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(summary);
      expect([installs(run.stderr, "base"), installs(run.stderr, "head")]).toEqual([1, 1]);
      // The fixes change no dependency manifest: head hard-links base's install instead of installing again.
      // The line shows the copy apart from the wait for base's install.
      expect(run.stderr).toMatch(
        /\nhead {2}install {3}base's, hard-linked \(the same dependency manifests\) {2}copied in [\d.]+m?s, after waiting [\d.]+m?s for base's install\n/,
      );
      expect(summary).toMatchObject({ verdict: "proved", shard: { index: index + 1, total: 2 } });
    }
    // Playwright's split: contiguous slices of the list sorted by file, the first shard taking the odd one.
    const half = Math.ceil(sorted.length / 2);
    expect(shards.map(({ summary }) => summary.scenarios.map((row) => row.file))).toEqual([sorted.slice(0, half), sorted.slice(half)]);

    expect(merged.run.exitCode, merged.run.stderr).toBe(0);
    expect(JSON.parse(merged.run.stdout)).toEqual(merged.summary);
    expect(merged.run.stderr.trimEnd().split("\n").slice(-2)).toEqual([
      `proved (exit 0): ${sorted.length} of ${sorted.length} scenarios proved.`,
      `summary: ${join(work, "merged", "summary.md")}`,
    ]);
    expect(merged.summary).toMatchObject({
      schema: "scenario-proof-summary/v1",
      verdict: "proved",
      exitCode: 0,
      shard: null,
      counts: { proved: sorted.length, notProved: 0, couldNotRun: 0 },
    });
    expect([merged.summary.base.ref, merged.summary.head.ref]).toEqual(["zoo-bugs", "zoo-fixes"]);
    expect(merged.summary.scenarios.map((row) => [row.file, row.verdict, row.report])).toEqual(
      sorted.map((file) => [file, "proved", `${file.replace(/\.e2e\.ts$/, "")}/report.md`]),
    );
    const markdown = await readFile(join(work, "merged", "summary.md"), "utf8");
    expect(markdown).toContain(`## ✅ Proved: ${sorted.length} of ${sorted.length} scenarios proved`);
    for (const row of merged.summary.scenarios) expect(markdown).toContain(`](${row.report})`);
    // Each row carries its report's redaction counts, and the summary their sum.
    const reports = await Promise.all(
      merged.summary.scenarios.map(
        async (row) => JSON.parse(await readFile(join(work, "merged", row.dir, "report.json"), "utf8")) as ProofReport,
      ),
    );
    expect(merged.summary.scenarios.map((row) => row.redactions)).toEqual(reports.map((report) => report.redactions));
    expect(merged.summary.redactions).toEqual({
      environment: reports.reduce((sum, report) => sum + report.redactions.environment, 0),
      secretShaped: reports.reduce((sum, report) => sum + report.redactions.secretShaped, 0),
    });
    expect(await processesMentioning(zoo.dir)).toEqual([]);
  });

  it.each(zooBugs)("$id: proved, base failing in its scenario and head passing, with both sides' screenshots", async (bug) => {
    const row = merged.summary.scenarios.find((candidate) => candidate.file === bug.scenario);
    if (row === undefined) throw new Error(`${bug.scenario} is not in the merged summary`);
    const out = join(work, "merged", row.dir);
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as ProofReport;
    expect([report.scenario.title, report.reason]).toEqual([row.title, row.reason]);
    expect(report.command).toMatch(
      new RegExp(`^pnpm prove-scenario --base [0-9a-f]{12} --head [0-9a-f]{12} ${bug.scenario} --repo .* --expect-timeout 5000$`),
    );
    const progress = shards.map((shard) => shard.run.stderr).join("\n\n");
    await expectProvedBug(out, report, bug, { base: "zoo-bugs", head: "zoo-fixes" }, 1, progress);
  });
});
