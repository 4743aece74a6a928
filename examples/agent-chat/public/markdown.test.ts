import { describe, expect, it } from "vitest";
import { MarkdownStream, renderMarkdown } from "./markdown.js";

/** What a reply's element shows after each delta: the closed blocks' HTML, then the open rest's. */
function stream(deltas: string[]): { shown: string[]; closed: string } {
  const markdown = new MarkdownStream();
  let closed = "";
  const shown = deltas.map((delta) => {
    const update = markdown.push(delta);
    closed = (update.restart ? "" : closed) + update.closed;
    return closed + update.open;
  });
  return { shown, closed };
}

/** The full renders of the text after each delta. */
function fullRenders(deltas: string[]): string[] {
  return deltas.map((_, index) => renderMarkdown(deltas.slice(0, index + 1).join("")));
}

/** A small seeded generator, so a failing document is the same on every run. */
function random(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

/** Blocks of every kind, including the ones that go on across a blank line or change a block above them. */
const blocks = [
  "# A heading",
  "## Setup\nwith a paragraph under it",
  "A paragraph with *emphasis*, `code` and a [link](https://example.com).",
  "A paragraph\nover two lines",
  "Setext heading\n---",
  "- one\n- two\n- three",
  "- loose\n\n- list\n\n  with a second paragraph",
  "1. first\n2. second\n   - nested\n   - items",
  "* star\n+ plus",
  "2. a numbered item",
  "- a dashed item",
  "10",
  "Term\n===",
  "Line\n    not code",
  "```ts\nconst a = 1;\n\nconst b = a < 2;\n```",
  "```\nno closing fence",
  "    indented code\n\n    after a blank line",
  "> a quote\n> on two lines\n\n> and another",
  "| a | b |\n| --- | --- |\n| 1 | 2 |",
  "<div>\nraw *html*\n</div>",
  "<!-- a comment\n\nover a blank line -->",
  "***",
  "Text with <b>inline html</b> and a footnote-like [ref][1].",
  "[1]: https://example.com/ref",
  "  - indented item\n\n  continued",
  "Trailing spaces  \nmake a break",
];
const separators = ["\n", "\n\n", "\n\n\n", "\n \n", "\r\n\r\n"];

function document(next: (below: number) => number): string {
  const count = 2 + next(8);
  return Array.from({ length: count }, (_, index) => {
    const block = blocks[next(blocks.length)] ?? "";
    return index === 0 ? block : `${separators[next(separators.length)]}${block}`;
  }).join("");
}

function cut(text: string, next: (below: number) => number): string[] {
  const deltas: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = 1 + next(7);
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  return deltas;
}

describe("a streamed reply's Markdown", () => {
  it("shows after every delta exactly what a full render of the text so far shows, over 500 generated replies", () => {
    const next = random(39);
    for (let index = 0; index < 500; index++) {
      const deltas = cut(document(next), next);
      expect(stream(deltas).shown, JSON.stringify(deltas.join(""))).toEqual(fullRenders(deltas));
    }
  });

  it("renders the closed blocks once: after a long reply only its last block is open", () => {
    const reply = Array.from({ length: 40 }, (_, index) => `## Part ${index}\n\nParagraph ${index}.\n\n- a\n- b`).join("\n\n");
    const deltas = reply.split(/(?= )/);
    const { shown, closed } = stream(deltas);
    expect(shown.at(-1)).toBe(renderMarkdown(reply));
    expect(renderMarkdown(reply).slice(closed.length)).toBe("<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
  });

  it("keeps a list open across a blank line until a block that is not its item comes", () => {
    const deltas = ["- one\n\n", "- two\n\n", "after"];
    expect(stream(deltas).shown).toEqual(fullRenders(deltas));
    expect(stream(deltas.slice(0, 2)).closed).toBe("");
  });

  it("renders the whole reply again once a link definition comes, as it changes the links above it", () => {
    const deltas = ["See [the docs][docs].\n\n", "More text.\n\n", "[docs]: https://example.com/docs\n"];
    const markdown = new MarkdownStream();
    const updates = deltas.map((delta) => markdown.push(delta));
    expect(updates.map((update) => update.restart)).toEqual([false, false, true]);
    expect(updates.at(-1)?.open).toBe(renderMarkdown(deltas.join("")));
    expect(updates.at(-1)?.open).toContain('<a href="https://example.com/docs">the docs</a>');
  });

  it("joins a carriage return and a line feed cut across two deltas into one line end", () => {
    const deltas = ["First paragraph.\r", "\nSame paragraph.\r\n\r\n", "Second."];
    expect(stream(deltas).shown).toEqual(fullRenders(deltas));
  });
});

describe("a reply's Markdown", () => {
  it("shows raw HTML as text and drops a link's address that is not a web, mail or relative one", () => {
    expect(renderMarkdown('<img src=x onerror="alert(1)"> [click](javascript:alert(1)) [ok](https://example.com)')).toBe(
      '<p>&#60;img src=x onerror=&#34;alert(1)&#34;&#62; click <a href="https://example.com">ok</a></p>\n',
    );
    expect(renderMarkdown("<script>\nalert(1)\n</script>")).toBe("<p>&#60;script&#62;\nalert(1)\n&#60;/script&#62;</p>\n");
  });
});
