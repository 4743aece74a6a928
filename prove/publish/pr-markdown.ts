import { posix } from "node:path";
import type { Verdict } from "../outcome/types.ts";

/**
 * pr.md: a report's or summary's Markdown for a pull request, with no relative link left: each is made
 * absolute when it names a published file, else plain text. Code is left as written.
 */

/** The first line of pr.md: a CI workflow finds its pull-request comment by it. */
export const prMarker = "<!-- scenario-prover -->";

export interface LinkRules {
  /** The absolute URL of a published file, by its path relative to the Markdown's folder; undefined when it is not published. */
  readonly published: (path: string) => string | undefined;
  /** The plain text a link to an unpublished file becomes, from the link's text and its path. */
  readonly unpublished: (text: string, path: string) => string;
}

const isRelative = (target: string) =>
  target !== "" && !target.startsWith("#") && !target.startsWith("//") && !/^[a-z][a-z0-9+.-]*:/i.test(target);

/** A link target as a path relative to the Markdown's folder: no angle brackets, query, fragment or `./`, percent-decoded. */
function pathOf(target: string): string {
  const bare = target.replace(/^<(.*)>$/, "$1").replace(/[?#].*$/, "");
  let decoded: string;
  try {
    decoded = decodeURI(bare);
  } catch {
    decoded = bare;
  }
  return posix.normalize(decoded).replace(/^(\.\/)+/, "");
}

const placeholder = (index: number) => `\u{F0000}${index}\u{F0001}`;
const placeholders = /\u{F0000}(\d+)\u{F0001}/gu;

/** Replaces fenced code blocks, then code spans, by placeholders; `restore` puts them back. */
function protectCode(markdown: string): { readonly text: string; readonly restore: (text: string) => string } {
  const kept: string[] = [];
  const keep = (code: string) => placeholder(kept.push(code) - 1);
  const lines = markdown.split("\n");
  const out: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[index] ?? "");
    if (open === null) {
      out.push(lines[index] ?? "");
      continue;
    }
    const fence = open[1] ?? "```";
    const closing = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end] ?? "")) end++;
    out.push(keep(lines.slice(index, end + 1).join("\n")));
    index = end;
  }
  const text = out.join("\n").replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (code) => keep(code));
  // Two rounds: a code span may hold a fenced block's placeholder, never deeper.
  const once = (changed: string) => changed.replace(placeholders, (_match, index: string) => kept[Number(index)] ?? "");
  const restore = (changed: string) => once(once(changed));
  return { text, restore };
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*(["'])(.*?)\\1`, "i").exec(tag);

function transform(text: string, rules: LinkRules): string {
  const relative = (target: string) => isRelative(target.replace(/^<(.*)>$/, "$1"));
  const urlOf = (target: string) => rules.published(pathOf(target));

  const anchors = text.replace(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi, (whole, _attributes: string, inner: string) => {
    const href = attribute(whole.slice(0, whole.indexOf(">") + 1), "href");
    const target = href?.[2];
    if (target === undefined || !relative(target) || urlOf(target) !== undefined) return whole;
    return rules.unpublished(inner, pathOf(target));
  });

  const images = anchors.replace(/<img\b[^>]*>/gi, (tag) => {
    const target = attribute(tag, "src")?.[2];
    if (target === undefined || !relative(target) || urlOf(target) !== undefined) return tag;
    return rules.unpublished(attribute(tag, "alt")?.[2] ?? "", pathOf(target));
  });

  const attributes = images.replace(
    /(\s)(href|src)(\s*=\s*)(["'])(.*?)\4/gi,
    (whole, space: string, name: string, equals: string, quote: string, target: string) => {
      if (!relative(target)) return whole;
      const url = urlOf(target);
      return url === undefined ? "" : `${space}${name}${equals}${quote}${url}${quote}`;
    },
  );

  const links = (markdown: string): string =>
    markdown.replace(
      /(!?)\[((?:[^[\]]|\[(?:[^[\]]|\[[^[\]]*\])*\])*)\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
      (whole, bang: string, label: string, target: string, title: string | undefined) => {
        const shown = links(label);
        if (!relative(target)) return `${bang}[${shown}](${target}${title ?? ""})`;
        const url = urlOf(target);
        return url === undefined ? rules.unpublished(shown, pathOf(target)) : `${bang}[${shown}](${url}${title ?? ""})`;
      },
    );

  return links(attributes).replace(
    /^ {0,3}\[([^\]\n]+)\]:[ \t]*(<[^>\n]*>|\S+)(.*)$\n?/gm,
    (whole, label: string, target: string, rest: string) => {
      if (!relative(target)) return whole;
      const url = urlOf(target);
      return url === undefined ? "" : `[${label}]: ${url}${rest}${whole.endsWith("\n") ? "\n" : ""}`;
    },
  );
}

/** `markdown` with its relative links made absolute or plain text by `rules`, its code untouched. */
export function absoluteLinks(markdown: string, rules: LinkRules): string {
  const { text, restore } = protectCode(markdown);
  return restore(transform(text, rules));
}

/**
 * A report's Markdown for a pull request: published images linked absolutely, other files named as
 * files of the proof's folder. `folder` is the report's folder relative to the reader's ("" alone).
 */
export function reportForPr(markdown: string, urls: ReadonlyMap<string, string>, folder = ""): string {
  return absoluteLinks(markdown, {
    published: (path) => urls.get(path),
    unpublished: (text, path) => {
      const file = `\`${posix.join(folder, path)}\``;
      const named = text.trim() === "" || text.trim() === path ? file : `${text} (${file})`;
      return `${named} (in the proof's folder or CI artifact)`;
    },
  });
}

export interface ScenarioSection {
  readonly verdict: Verdict;
  readonly file: string;
  readonly title: string | null;
  /** The scenario's report for a pull request, from `reportForPr`. */
  readonly body: string;
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A report as pr.md holds it: the marker, then the report. */
export function reportPr(markdown: string, urls: ReadonlyMap<string, string>): string {
  return `${prMarker}\n${reportForPr(markdown, urls)}`;
}

/** A multi-scenario proof as pr.md holds it: the marker, summary.md, then each report in a `<details>`, open unless proved. */
export function summaryPr(summary: string, urls: ReadonlyMap<string, string>, sections: ReadonlyArray<ScenarioSection>): string {
  const head = absoluteLinks(summary, {
    published: (path) => urls.get(path),
    unpublished: (text, path) => (text.trim() === "" ? path : text),
  });
  const details = sections.map((section) => {
    const name = section.title === null ? section.file : `${section.file} › ${section.title}`;
    const open = section.verdict === "proved" ? "" : " open";
    return `<details${open}><summary>${escapeHtml(`${section.verdict}: ${name}`)}</summary>\n\n${section.body.trim()}\n\n</details>`;
  });
  return `${prMarker}\n${[head.trimEnd(), ...details].join("\n\n")}\n`;
}
