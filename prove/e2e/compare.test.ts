import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { execa } from "execa";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main, type CompareReport } from "../index.ts";
import { linkTargets } from "../publish/test-support.ts";
import { prMarker } from "../publish/pr-markdown.ts";
import { checkout, processesMentioning, publishFrom, startProver, writeScenarioFolder } from "./support/prover.ts";

let work: string;
/** A node:http app's repository: `app`, a page whose tool result shows once its details are opened, and `restyled`, a change to its stylesheet alone. */
let repo: string;
/** Two labels: `asked` before the tool call shows, `tool-calls` with its result opened. Outside the repository, as its config is. */
let scenario: string;
let config: string;

const server = `import { readFileSync } from "node:fs";
import { createServer } from "node:http";

createServer((request, response) => {
  const css = request.url === "/style.css";
  response.setHeader("content-type", css ? "text/css" : "text/html");
  response.end(readFileSync(css ? "style.css" : "index.html"));
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

const page = `<!doctype html>
<title>Chat</title>
<link rel="stylesheet" href="/style.css">
<p>List the files</p>
<details><summary>list_files</summary><pre class="tool-result">src/math.ts\nsrc/main.ts</pre></details>
`;

const style = "body { font: 16px sans-serif; }\n.tool-result {\n  width: 900px;\n  height: 240px;\n}\n";
/** Restyled: a tool call's result gets a yellow background, so a screenshot shows it only once the tool call is opened. */
const restyle = "\n.tool-result {\n  background: #fde68a;\n}\n";

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-compare-"));
  repo = join(work, "chat-app");
  await mkdir(repo);
  const git = (...args: string[]) =>
    execa("git", ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", "-c", "commit.gpgsign=false", ...args], { cwd: repo });
  await writeFile(join(repo, "server.mjs"), server);
  await writeFile(join(repo, "index.html"), page);
  await writeFile(join(repo, "style.css"), style);
  await git("init", "--quiet", "-b", "app");
  await git("add", "--all");
  await git("commit", "--quiet", "-m", "A chat page");
  await git("checkout", "--quiet", "-b", "restyled");
  await writeFile(join(repo, "style.css"), style + restyle);
  await git("commit", "--quiet", "--all", "-m", "Tool results on a yellow background");

  ({ config, scenario } = await writeScenarioFolder(join(work, "scenarios"), {
    app: `{ root: ".", install: false, start: "node server.mjs", ready: { path: "/" } }`,
    file: "tool-call.e2e.ts",
    body: `test("a tool call's result shows once it is opened", async ({ app, page }) => {
  await app.open("/");
  await app.screenshot("asked");
  await page.getByText("list_files").click();
  await expect(page.locator(".tool-result")).toBeVisible();
  await app.screenshot("tool-calls");
});
`,
  }));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const compareArgs = (out: string) => [
  "compare",
  "--repo",
  repo,
  "--base",
  "app",
  "--head",
  "restyled",
  "--config",
  config,
  scenario,
  "--out",
  out,
];

/** How many pixels of a PNG are exactly the difference image's magenta. */
async function magentaPixels(file: string): Promise<number> {
  const { data } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let pixel = 0; pixel < data.length; pixel += 3) if (data[pixel] === 255 && data[pixel + 1] === 0 && data[pixel + 2] === 255) count++;
  return count;
}

describe("prove-scenario compare", () => {
  it("finds that a change to the stylesheet alone changed the one label that shows the restyled element, and not the other", async () => {
    expect((await execa("git", ["diff", "--name-only", "app", "restyled"], { cwd: repo })).stdout).toBe("style.css");
    const out = join(work, "restyled");
    // Both sides pass, so no run waits an expect timeout out; 5 s as a proof's tests use keeps a slip cheap.
    const run = await startProver([...compareArgs(out), "--expect-timeout", "5000", "--json"]);

    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(out, "compare.json"), "utf8")) as CompareReport;
    expect(JSON.parse(run.stdout)).toEqual(report);
    expect([report.schema, report.exitCode, report.reasonCode, report.threshold, report.tolerance]).toEqual([
      "scenario-compare/v1",
      0,
      "compared",
      0.001,
      16,
    ]);
    expect(report.labels.map((label) => [label.label, label.verdict, label.base, label.head, label.difference])).toEqual([
      ["asked", "unchanged", "images/base-asked.png", "images/head-asked.png", "images/diff-asked.png"],
      ["tool-calls", "changed", "images/base-tool-calls.png", "images/head-tool-calls.png", "images/diff-tool-calls.png"],
    ]);
    expect(report.counts).toEqual({ changed: 1, unchanged: 1, onlyOnBase: 0, onlyOnHead: 0 });
    const [asked, toolCalls] = report.labels;
    expect(asked?.changedShare).toBeLessThanOrEqual(report.threshold);
    // Two opened tool results, each a wide block: far more than a stray pixel.
    expect(toolCalls?.changedShare).toBeGreaterThan(10 * report.threshold);
    expect([report.base.attempts, report.head.attempts]).toMatchObject([[{ outcome: "passed" }], [{ outcome: "passed" }]]);

    // The difference image is head dimmed with the changed pixels in magenta: tool-calls has them, asked as few as its share says.
    const size = { width: 1280, height: 720 };
    expect(await sharp(join(out, "images/diff-tool-calls.png")).metadata()).toMatchObject(size);
    expect(await magentaPixels(join(out, "images/diff-tool-calls.png"))).toBe(toolCalls?.changedPixels);
    expect(toolCalls?.changedPixels).toBeGreaterThan(0);
    expect(await magentaPixels(join(out, "images/diff-asked.png"))).toBe(asked?.changedPixels);

    const markdown = await readFile(join(out, "compare.md"), "utf8");
    const rows = markdown
      .split("\n")
      .filter((line) => line.startsWith("| **"))
      .map((row) =>
        row.split(" | ").map((cell) => cell.replace(/<a href="[^"]*"><img src="([^"]+)"[^>]*><\/a>/g, "$1").replace(/^\| |\*\*| \|$/g, "")),
      );
    expect(rows).toEqual([
      [
        "asked",
        "images/base-asked.png",
        "images/head-asked.png",
        expect.stringMatching(/^images\/diff-asked\.png<br>unchanged, (0|< 0\.01|0\.0\d) % of pixels$/),
      ],
      [
        "tool-calls",
        "images/base-tool-calls.png",
        "images/head-tool-calls.png",
        expect.stringMatching(/^images\/diff-tool-calls\.png<br>changed, \d+(\.\d+)? % of pixels$/),
      ],
    ]);
    expect(markdown).toMatch(/^\| \| base `[0-9a-f]{7}` app \| head `[0-9a-f]{7}` restyled \| difference \|$/m);
    // The command names each path as typed, relative to the invoking checkout, where it runs again.
    const typed = (path: string) => relative(checkout, path);
    expect(report.command).toMatch(
      new RegExp(
        `^pnpm prove-scenario compare --base [0-9a-f]{12} --head [0-9a-f]{12} ${escaped(typed(scenario))} --repo ${escaped(typed(repo))} --config ${escaped(typed(config))} --expect-timeout 5000$`,
      ),
    );

    const lines = run.stderr.trimEnd().split("\n");
    expect(lines.slice(-2)).toEqual([`compared (exit 0): ${report.reason}`, `compare: ${join(out, "compare.md")}`]);
    expect(report.reason).toMatch(/^1 of 2 labels changed: tool-calls \(\d+(\.\d+)? %\); unchanged: asked\.$/);
    expect(await processesMentioning(repo)).toEqual([]);
    expect(
      (await execa("git", ["worktree", "list", "--porcelain"], { cwd: repo })).stdout
        .split("\n")
        .filter((line) => line.startsWith("worktree ")),
    ).toHaveLength(1);

    // Published for a pull request: the images go to <scenario>/<base7>-<head7>-compare/ on the branch, and pr.md links each one there.
    const published = await publishFrom(repo, out);
    expect(published.exitCode, published.stderr).toBe(0);
    // The scenario lies outside the checkout: its folder is its path from there, less the steps up, in lower case.
    const folder = `${typed(scenario)
      .replace(/^(\.\.\/)+/, "")
      .replace(/\.e2e\.ts$/, "")
      .toLowerCase()}/${report.base.sha?.slice(0, 7) ?? "?"}-${report.head.sha?.slice(0, 7) ?? "?"}-compare`;
    const images = report.labels
      .flatMap((label) => [label.base, label.head, label.difference])
      .filter((path): path is string => path !== null);
    expect(published.files).toEqual(images.map((path) => `${folder}/${path}`).sort());
    expect(published.pr.split("\n").slice(0, 2)).toEqual([prMarker, markdown.split("\n")[0]]);
    const targets = linkTargets(published.pr);
    expect(targets.length).toBeGreaterThanOrEqual(2 * images.length);
    expect(targets.filter((target) => !target.startsWith(`https://img.example/proofs/${folder}/images/`))).toEqual([]);
  });

  it("refuses a --threshold that is not a share from 0 to 1, naming the flag and the fix, before running anything", async () => {
    const out = join(work, "bad-threshold");
    // main(argv) in this process, as the binary calls it: the parser refuses the line before anything asynchronous starts.
    const lines: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0);
    let exited: Promise<number>;
    try {
      exited = main([...compareArgs(out), "--threshold", "5%"], checkout);
    } finally {
      stderr.mockRestore();
    }
    expect(await exited).toBe(2);
    expect(lines.join("")).toContain(
      '--threshold takes the share of changed pixels, from 0 to 1, at or below which a label counts as unchanged, e.g. --threshold 0.005 for half a percent (default 0.001); got "5%".',
    );
    expect(lines.join("")).toContain("Run `prove-scenario --help` for the options.");
    expect(existsSync(out)).toBe(false);
  });
});
