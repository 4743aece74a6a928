import { describe, expect, it } from "vitest";
import { prMarker, reportForPr, reportPr, summaryPr } from "./pr-markdown.ts";
import { linkTargets, sampleReport } from "./test-support.ts";

const base = "https://img.example/proofs/chat/aaaaaaa-bbbbbbb";
const proof = sampleReport({
  file: "scenarios/chat.e2e.ts",
  title: "Stop button goes away",
  baseSha: "a".repeat(40),
  headSha: "b".repeat(40),
});
const urlsOf = (paths: ReadonlyArray<string>, prefix = base) => new Map(paths.map((path) => [path, `${prefix}/${path}`]));
const published = urlsOf([...proof.images, "comparison.png"]);
const inFolder = "(in the proof's folder or CI artifact)";

describe("pr.md of a report", () => {
  const pr = reportPr(proof.markdown, published);
  const lines = pr.split("\n");

  it("starts with the marker a CI workflow finds its comment by, then the report", () => {
    expect(lines[0]).toBe(prMarker);
    expect(lines[1]).toBe("## ✅ Proved: Stop button goes away");
  });

  it("links every image absolutely, in the table and in the Files line, and names traces and logs as files of the proof", () => {
    expect(lines.find((line) => line.startsWith("| **opened**"))).toBe(
      `| **opened** | <a href="${base}/images/base-opened.png"><img src="${base}/images/base-opened.png" width="400" alt="base: opened"></a> | ` +
        `<a href="${base}/images/head-opened.png"><img src="${base}/images/head-opened.png" width="400" alt="head: opened"></a> |`,
    );
    expect(lines.find((line) => line.startsWith("| **failure screenshot**"))).toBe(
      `| **failure screenshot** | <a href="${base}/images/failure-base.png"><img src="${base}/images/failure-base.png" width="400" alt="base: failure screenshot"></a> | no failure |`,
    );
    expect(lines.find((line) => line.startsWith("Files:"))).toBe(
      `Files: [comparison.png](${base}/comparison.png), \`base/trace.zip\` ${inFolder}, \`base/server.log\` ${inFolder}`,
    );
    expect(linkTargets(pr).length).toBe(11);
    expect(linkTargets(pr).filter((target) => !target.startsWith(`${base}/`))).toEqual([]);
  });

  it("leaves code blocks and code spans as written, links and tags in them included", () => {
    expect(pr).toContain('```text\nExpected hidden; see [the docs](docs/stop.md) and <img src="local.png">\n```');
    expect(pr).toContain("```sh\npnpm prove-scenario --base main --head fix scenarios/chat.e2e.ts\n```");
    const spans = 'Run `[x](images/a.png)` and ``see `src="b.png"` ``';
    expect(reportForPr(spans, published)).toBe(spans);
  });
});

describe("a relative link in pr.md", () => {
  const urls = urlsOf(["images/a.png", "images/a b.png", "comparison.png"], "https://img.example");
  it.each([
    ["a Markdown image", "![shot](images/a.png)", "![shot](https://img.example/images/a.png)"],
    ["one with ./ and a title", `![shot](./images/a.png "Base")`, `![shot](https://img.example/images/a.png "Base")`],
    ["one in angle brackets", "[see](<images/a b.png>)", "[see](https://img.example/images/a b.png)"],
    ["one percent-encoded", "[see](images/a%20b.png)", "[see](https://img.example/images/a b.png)"],
    [
      "an image inside a link",
      "[![c](comparison.png)](comparison.png)",
      "[![c](https://img.example/comparison.png)](https://img.example/comparison.png)",
    ],
    ["a link to a trace", "[the trace](base/trace.zip)", `the trace (\`base/trace.zip\`) ${inFolder}`],
    ["an HTML link to a log", "<a href='head/server.log'>log</a>", `log (\`head/server.log\`) ${inFolder}`],
    ["an HTML image not published", '<img src="images/gone.png" alt="gone">', `gone (\`images/gone.png\`) ${inFolder}`],
    ["a root-relative link", "[home](/docs)", `home (\`/docs\`) ${inFolder}`],
    ["a reference definition to an image", "[c]: comparison.png\n\nSee [c].", "[c]: https://img.example/comparison.png\n\nSee [c]."],
    ["a reference definition to a trace", "[t]: base/trace.zip\nSee [t].", "See [t]."],
  ])("is made absolute or plain text: %s", (_form, markdown, shown) => {
    expect(reportForPr(markdown, urls)).toBe(shown);
  });

  it.each([
    ["an absolute link", "[docs](https://example.com/a.md)"],
    ["an anchor", "[commits](#commits)"],
    ["a mail link", "[mail](mailto:a@example.com)"],
    ["an absolute image", '<img src="https://example.com/a.png">'],
  ])("is left as it is when it is not relative: %s", (_form, markdown) => {
    expect(reportForPr(markdown, urls)).toBe(markdown);
  });

  it("names a file by its path from the summary's folder inside a summary", () => {
    expect(reportForPr("[base/trace.zip](base/trace.zip)", urls, "scenarios/chat")).toBe(`\`scenarios/chat/base/trace.zip\` ${inFolder}`);
  });
});

describe("pr.md of a multi-scenario proof", () => {
  const summary = [
    "## ❌ 1 of 2 scenarios proved",
    "",
    "| Scenario | Verdict |",
    "| - | - |",
    "| [scenarios/chat.e2e.ts › Stop](scenarios/chat/report.md) | proved |",
    '| <a href="scenarios/cart/report.md">scenarios/cart.e2e.ts</a> | not-proved |',
    "",
    "[Shard details](https://ci.example/run/7)",
    "",
  ].join("\n");
  const pr = summaryPr(summary, new Map(), [
    { verdict: "proved", file: "scenarios/chat.e2e.ts", title: "Stop <button>", body: `## ✅ Proved\n\n![x](${base}/images/a.png)\n` },
    { verdict: "not-proved", file: "scenarios/cart.e2e.ts", title: null, body: "## ❌ Not proved\n" },
  ]);

  it("is the marker, the summary with its links to reports as plain names, then each report, open unless proved", () => {
    expect(pr).toBe(
      [
        prMarker,
        "## ❌ 1 of 2 scenarios proved",
        "",
        "| Scenario | Verdict |",
        "| - | - |",
        "| scenarios/chat.e2e.ts › Stop | proved |",
        "| scenarios/cart.e2e.ts | not-proved |",
        "",
        "[Shard details](https://ci.example/run/7)",
        "",
        "<details><summary>proved: scenarios/chat.e2e.ts › Stop &lt;button&gt;</summary>",
        "",
        "## ✅ Proved",
        "",
        `![x](${base}/images/a.png)`,
        "",
        "</details>",
        "",
        "<details open><summary>not-proved: scenarios/cart.e2e.ts</summary>",
        "",
        "## ❌ Not proved",
        "",
        "</details>",
        "",
      ].join("\n"),
    );
  });
});
