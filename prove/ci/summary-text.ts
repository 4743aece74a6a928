import { blocks } from "./markdown-blocks.ts";
import { plainRelativeLinks } from "./plain-links.ts";

/** Markdown fitted to a GitHub job summary, read away from the report folder. */

/** Lines of a fenced block a job summary keeps; an error's first lines say what failed. */
export const fenceLines = 12;

/** The line a shortened summary ends with. */
export const artifactNote = "_The screenshots and the full report are in the report artifact._";

export interface SummaryText {
  readonly text: string;
  /** Whether a link, image, section or line was left out, so the reader needs the artifact. */
  readonly shortened: boolean;
}

const headingLevel = (line: string) => /^ {0,3}(#{1,6})(\s|$)/.exec(line)?.[1]?.length;

/**
 * `markdown` with relative links and images as text, outside code. With `short`, only up to the first
 * heading deeper than the title, and each fenced block cut to `fenceLines` lines.
 */
export function summaryText(markdown: string, short: boolean): SummaryText {
  const parts: string[] = [];
  let shortened = false;
  let title: number | undefined;
  for (const block of blocks(markdown)) {
    if (block.kind === "fence") {
      const { open, content, close } = block;
      const more = short ? content.length - fenceLines : 0;
      const kept = more > 0 ? [...content.slice(0, fenceLines), `… ${more} more line${more === 1 ? "" : "s"} in the report`] : content;
      shortened ||= more > 0;
      parts.push([open, ...kept, ...(close === undefined ? [] : [close])].join("\n"));
      continue;
    }
    const lines: string[] = [];
    let end = false;
    for (const line of block.lines) {
      const level = headingLevel(line);
      if (short && level !== undefined && title !== undefined && level > title) {
        end = true;
        break;
      }
      title ??= level;
      lines.push(line);
    }
    const plain = plainRelativeLinks(lines.join("\n"));
    shortened ||= plain.replaced > 0 || end;
    parts.push(plain.text);
    if (end) break;
  }
  return { text: parts.join("\n").trim(), shortened };
}
