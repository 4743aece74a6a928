/** Relative links and images in Markdown replaced by their text: a job summary is shown away from the report folder. */

/** An address that works away from the report folder: with a scheme, protocol-relative, or an anchor. */
const absolute = (target: string) => /^([a-z][a-z0-9+.-]*:|\/\/|#)/i.test(target.trim());

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return match === null ? undefined : (match[1] ?? match[2] ?? match[3]);
}

const fileName = (target: string) => target.split(/[?#]/)[0]?.split("/").pop() ?? target;

/** Code spans come first in each pattern (group 1) so that a link inside one is left as written. */
const codeSpan = String.raw`(\`+)[^\`]*?\1`;

interface Rule {
  readonly pattern: RegExp;
  /** The plain text for a match (groups after the code span's), or undefined to keep it. */
  readonly text: (whole: string, groups: ReadonlyArray<string | undefined>) => string | undefined;
}

const rules: ReadonlyArray<Rule> = [
  {
    // <img src="…" alt="…">: its alt text, else its file name
    pattern: new RegExp(`${codeSpan}|<img\\b[^>]*>`, "gi"),
    text: (tag) => {
      const src = attribute(tag, "src");
      return src === undefined || absolute(src) ? undefined : (attribute(tag, "alt") ?? fileName(src));
    },
  },
  {
    // <a href="…">text</a>: its text
    pattern: new RegExp(`${codeSpan}|<a\\b[^>]*>([\\s\\S]*?)</a>`, "gi"),
    text: (tag, [inner]) => {
      const href = attribute(tag.slice(0, tag.indexOf(">") + 1), "href");
      return href === undefined || absolute(href) ? undefined : (inner ?? "");
    },
  },
  {
    // ![alt](target) and [text](target), with an optional title: the alt text or the text
    pattern: new RegExp(`${codeSpan}|!?\\[([^\\[\\]]*)\\]\\(\\s*(<[^>]*>|[^\\s()]*)(?:\\s+"[^"]*")?\\s*\\)`, "g"),
    text: (_link, [text, target]) => (absolute((target ?? "").replace(/^<|>$/g, "")) ? undefined : (text ?? "")),
  },
];

/** `markdown` with every relative link and image replaced by its text, and how many were replaced. */
export function plainRelativeLinks(markdown: string): { readonly text: string; readonly replaced: number } {
  let replaced = 0;
  let text = markdown;
  let before: string;
  do {
    // again until nothing changes: an image inside a link becomes text first, then the link
    before = text;
    for (const rule of rules) {
      text = text.replace(rule.pattern, (whole: string, ticks: string | undefined, ...rest: unknown[]) => {
        if (ticks !== undefined) return whole;
        const plain = rule.text(whole, rest.slice(0, -2) as ReadonlyArray<string | undefined>);
        if (plain === undefined) return whole;
        replaced += 1;
        return plain;
      });
    }
  } while (text !== before);
  return { text, replaced };
}
