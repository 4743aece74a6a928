/** Markdown split into fenced code blocks and the text between them, line by line. */

export type Block =
  | { readonly kind: "text"; readonly lines: ReadonlyArray<string> }
  | {
      readonly kind: "fence";
      readonly open: string;
      readonly content: ReadonlyArray<string>;
      /** Undefined when the fence runs to the end of the text. */
      readonly close: string | undefined;
    };

const opening = /^ {0,3}(`{3,}|~{3,})/;

function closes(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return match?.[1] !== undefined && match[1][0] === fence[0] && match[1].length >= fence.length;
}

/** `markdown`'s fenced code blocks and the text between them, in order. */
export function blocks(markdown: string): ReadonlyArray<Block> {
  const result: Block[] = [];
  let text: string[] | undefined;
  let fence: { marker: string; open: string; content: string[] } | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    if (fence !== undefined) {
      if (closes(line, fence.marker)) {
        result.push({ kind: "fence", open: fence.open, content: fence.content, close: line });
        fence = undefined;
      } else {
        fence.content.push(line);
      }
      continue;
    }
    const marker = opening.exec(line)?.[1];
    if (marker !== undefined) {
      text = undefined;
      fence = { marker, open: line, content: [] };
    } else if (text === undefined) {
      text = [line];
      result.push({ kind: "text", lines: text });
    } else {
      text.push(line);
    }
  }
  if (fence !== undefined) result.push({ kind: "fence", open: fence.open, content: fence.content, close: undefined });
  return result;
}
