export declare function renderMarkdown(text: string): string;

export declare class MarkdownStream {
  push(text: string): { restart: boolean; closed: string; open: string };
}
