import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { renderSummary } from "../summary/markdown.ts";
import type { ProofSummary } from "../summary/schema.ts";
import { stepSummary, writeGithubFiles } from "./github.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "prove-ci-"));
  scratch.push(dir);
  return dir;
}

/** The report `pnpm demo` wrote, kept in docs/: the real report.md of a proof, with its relative images. */
const demoReport = fileURLToPath(new URL("../../docs/demo-report/report.md", import.meta.url));

async function reportFolder(name = "report"): Promise<string> {
  const dir = join(await tempDir(), name);
  await mkdir(dir, { recursive: true });
  await copyFile(demoReport, join(dir, "report.md"));
  return dir;
}

/** Reads a GITHUB_OUTPUT file the way the Actions runner does: `name=value`, or `name<<DELIMITER` up to the line that equals it. */
function parseGithubOutput(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (line === "") continue;
    const equals = line.indexOf("=");
    const heredoc = line.indexOf("<<");
    if (equals >= 0 && (heredoc < 0 || equals < heredoc)) {
      outputs[line.slice(0, equals)] = line.slice(equals + 1);
      continue;
    }
    if (heredoc <= 0) throw new Error(`Invalid GITHUB_OUTPUT line ${JSON.stringify(line)}`);
    const delimiter = line.slice(heredoc + 2);
    const end = lines.indexOf(delimiter, index + 1);
    if (delimiter === "" || end < 0) throw new Error(`No closing delimiter for ${JSON.stringify(line)}`);
    outputs[line.slice(0, heredoc)] = lines.slice(index + 1, end).join("\n");
    index = end;
  }
  return outputs;
}

/** Every link and image address in Markdown or HTML. */
const addresses = (markdown: string) => [
  ...[...markdown.matchAll(/\]\(\s*<?([^)\s>]*)/g)].map((match) => match[1]),
  ...[...markdown.matchAll(/\s(?:href|src)\s*=\s*["']?([^"'\s>]*)/gi)].map((match) => match[1]),
];

const summary: ProofSummary = {
  schema: "scenario-proof-summary/v1",
  verdict: "not-proved",
  exitCode: 1,
  reason: "1 of 2 scenarios proved",
  base: { ref: "main", sha: "c62e3170000000000000000000000000000000aa", subject: "Add the cart" },
  head: { ref: "fix/cart", sha: "a35150b000000000000000000000000000000bb", subject: "Fix the total" },
  shard: null,
  scenarios: [
    {
      file: "scenarios/cart-total.e2e.ts",
      title: "the cart adds 1 and 2 to a total of 3",
      verdict: "proved",
      exitCode: 0,
      reasonCode: "proved",
      reason: "The scenario fails on base and passes on head.",
      dir: "scenarios/cart-total",
      report: "scenarios/cart-total/report.md",
      redactions: { environment: 0, secretShaped: 0 },
    },
    {
      file: "scenarios/checkout/pay.e2e.ts",
      title: "paying shows a receipt",
      verdict: "not-proved",
      exitCode: 1,
      reasonCode: "passes-on-base",
      reason: "The scenario passes on base too.",
      dir: "scenarios/checkout/pay",
      report: "scenarios/checkout/pay/report.md",
      redactions: { environment: 0, secretShaped: 0 },
    },
  ],
  counts: { proved: 1, notProved: 1, couldNotRun: 0 },
  redactions: { environment: 0, secretShaped: 0 },
  markdown: "summary.md",
  timings: { totalMs: 61_000 },
  command: "pnpm prove-scenario --base c62e317 --head a35150b scenarios/cart-total.e2e.ts scenarios/checkout/pay.e2e.ts",
};

describe("the GitHub Actions step summary", () => {
  it("of report.md is the verdict, the reason, the table and the error's first lines, with no relative link", async () => {
    const text = await stepSummary(await reportFolder());

    expect(text.split("\n").slice(0, 3)).toEqual([
      "## ✅ Proved: Two tool calls streamed in one response each show their own name and arguments, and the model gets both results",
      "",
      expect.stringMatching(/^\*\*proved\*\* — The scenario fails on base \(bug\/tool-calls-merged-by-id\) with assertion/),
    ]);
    expect(text).toContain("| **asked** | base: asked | head: asked | difference: asked<br>no pixel changed |");
    expect(text).toContain(
      "| **tool-calls** | base: failure<br>failure screenshot: failed before this step | head: tool-calls | difference: base's failure screenshot against head: tool-calls<br>4.09 % of pixels changed |",
    );
    expect(addresses(text)).toEqual([]);
    expect(text).toContain("```text\nError: expect(locator).toHaveText(expected) failed\n");
    expect(text).toMatch(/\n… \d+ more lines in the report\n```\n/);
    expect(text).not.toContain("### Commits");
    expect(text).not.toContain("### Reproduce");
    expect(text.match(/screenshots and the full report are in the report artifact/g)).toHaveLength(1);
  });

  it("of summary.md keeps its table of verdicts, each scenario as plain text instead of a link to its report", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "summary.md"), renderSummary(summary));

    const text = await stepSummary(dir);

    expect(text).toMatch(/^## ❌ Not proved: 1 of 2 scenarios proved\n/);
    expect(text).toContain(
      "| ✅ | scenarios/cart-total.e2e.ts › the cart adds 1 and 2 to a total of 3 | **proved** — The scenario fails on base and passes on head. |",
    );
    expect(text).toContain(
      "| ❌ | scenarios/checkout/pay.e2e.ts › paying shows a receipt | **passes-on-base** — The scenario passes on base too. |",
    );
    expect(addresses(text)).toEqual([]);
    expect(text).not.toContain("### Reproduce");
  });

  it("of a published report is its pr.md, with the absolute image URLs and without the marker line", async () => {
    const dir = await reportFolder();
    const image = "https://github.com/acme/shop/raw/scenario-proofs/pr-7/images/base-asked.png";
    await writeFile(
      join(dir, "pr.md"),
      `<!-- scenario-prover -->\n## ✅ Proved: the cart total\n\n| | base | head |\n| - | - | - |\n| **asked** | <a href="${image}"><img src="${image}" width="400" alt="base: asked"></a> | not reached |\n`,
    );

    const text = await stepSummary(dir);

    expect(text).toBe(
      `## ✅ Proved: the cart total\n\n| | base | head |\n| - | - | - |\n| **asked** | <a href="${image}"><img src="${image}" width="400" alt="base: asked"></a> | not reached |\n`,
    );
  });
});

describe("writeGithubFiles", () => {
  it("sets the step outputs as lines a workflow reads back, after what earlier steps wrote, a path with a line break included", async () => {
    const work = await tempDir();
    const outputFile = join(work, "github-output");
    await writeFile(outputFile, "earlier=1\n");
    const reportDir = await reportFolder("odd\nfolder");
    const prFile = join(reportDir, "pr.md");

    const written = await writeGithubFiles({ GITHUB_OUTPUT: outputFile }, { verdict: "proved", exitCode: 0, reportDir, prFile });

    expect(written).toEqual(["GITHUB_OUTPUT"]);
    expect(parseGithubOutput(await readFile(outputFile, "utf8"))).toEqual({
      earlier: "1",
      verdict: "proved",
      "exit-code": "0",
      "report-dir": reportDir,
      "pr-md": prFile,
    });
  });

  it("appends each call's summary to the job summary, keeping what was there", async () => {
    const work = await tempDir();
    const summaryFile = join(work, "step-summary.md");
    await writeFile(summaryFile, "# Tests\n\nAll passed.\n");
    const proof = await reportFolder();
    const shards = await tempDir();
    await writeFile(join(shards, "summary.md"), renderSummary(summary));
    const env = { GITHUB_STEP_SUMMARY: summaryFile };

    expect(await writeGithubFiles(env, { verdict: "proved", exitCode: 0, reportDir: proof })).toEqual(["GITHUB_STEP_SUMMARY"]);
    await writeGithubFiles(env, { verdict: "not-proved", exitCode: 1, reportDir: shards });

    expect(await readFile(summaryFile, "utf8")).toBe(`# Tests\n\nAll passed.\n${await stepSummary(proof)}\n${await stepSummary(shards)}\n`);
  });

  it("says the verdict in the job summary when no report was written", async () => {
    const summaryFile = join(await tempDir(), "step-summary.md");

    await writeGithubFiles(
      { GITHUB_STEP_SUMMARY: summaryFile },
      { verdict: "could-not-run", exitCode: 2, reportDir: join(await tempDir(), "none") },
    );

    expect(await readFile(summaryFile, "utf8")).toBe(
      "**could-not-run** (exit code 2): no report was written; the step's log says why.\n\n",
    );
  });

  it("writes nothing outside GitHub Actions, and names the variable whose file it cannot append to", async () => {
    const reportDir = await reportFolder();
    const input = { verdict: "proved", exitCode: 0, reportDir };

    expect(await writeGithubFiles({ GITHUB_OUTPUT: "", PATH: "/usr/bin" }, input)).toEqual([]);
    await expect(writeGithubFiles({ GITHUB_OUTPUT: reportDir }, input)).rejects.toThrow(
      new RegExp(`^\\$GITHUB_OUTPUT names ${reportDir}, which could not be appended to \\(EISDIR`),
    );
    await expect(writeGithubFiles({ GITHUB_STEP_SUMMARY: join(reportDir, "missing", "summary.md") }, input)).rejects.toThrow(
      /^\$GITHUB_STEP_SUMMARY names .*ENOENT/,
    );
  });
});
