// Assistant replies as Markdown, with marked, their code highlighted by highlight.js. Replies are model output: raw
// HTML in them is shown as text, and a link or image keeps its address only when it is a web, mail or relative one.
import hljs from "@highlightjs/cdn-assets/es/highlight.min.js";
import { Marked } from "marked";
import { markedHighlight } from "marked-highlight";

const highlight = markedHighlight({
  emptyLangClass: "hljs",
  langPrefix: "hljs language-",
  highlight: (code, lang) => hljs.highlight(code, { language: hljs.getLanguage(lang) ? lang : "plaintext" }).value,
});

const markdown = new Marked(highlight, {
  gfm: true,
  renderer: {
    html: ({ text, block }) => (block ? `<p>${escapeHtml(text.trimEnd())}</p>\n` : escapeHtml(text)),
    link(token) {
      return safeUrl(token.href) ? false : this.parser.parseInline(token.tokens);
    },
    image: (token) => (safeUrl(token.href) ? false : escapeHtml(token.text)),
  },
});

/** The HTML of a whole reply. */
export function renderMarkdown(text) {
  return markdown.parser(lex(text));
}

/** The tokens of Markdown text, run through marked's token hooks (the highlighting), as `parse` does. */
function lex(text) {
  const tokens = markdown.lexer(text);
  markdown.walkTokens(tokens, markdown.defaults.walkTokens);
  return tokens;
}

/**
 * A streamed reply rendered block by block: the blocks a blank line has closed are rendered once, and only the open
 * rest is parsed again as text arrives. A closed block's HTML never changes after, as Markdown's blocks close line by
 * line; a link definition is the exception (it changes links above it), so a reply that has one is rendered whole.
 */
export class MarkdownStream {
  #received = "";
  #text = "";
  /** The length of the text whose blocks are rendered for good. */
  #closed = 0;
  #whole = false;

  /**
   * Adds streamed text. Returns the HTML of the blocks it closed, to add after those before (after none when `restart`),
   * and the HTML of the open rest, to show in place of the open rest shown before.
   */
  push(text) {
    this.#received += text;
    this.#text = this.#received.replace(/\r\n?/g, "\n");
    let tokens = lex(this.#text.slice(this.#closed));
    const restart = !this.#whole && this.#closed > 0 && Object.keys(tokens.links).length > 0;
    if (Object.keys(tokens.links).length > 0) this.#whole = true;
    if (restart) {
      this.#closed = 0;
      tokens = lex(this.#text);
    }
    const split = this.#whole ? 0 : closedCount(tokens, this.#text.slice(this.#closed));
    this.#closed += tokens.slice(0, split).reduce((length, token) => length + token.raw.length, 0);
    return { restart, closed: markdown.parser(tokens.slice(0, split)), open: markdown.parser(tokens.slice(split)) };
  }
}

/**
 * How many of the tokens are closed: those up to the last blank line that a whole line of another block follows (a
 * line cut short may still turn out to continue the block above, as `1` does once it is `1.`).
 */
function closedCount(tokens, text) {
  let end = 0;
  let count = 0;
  tokens.forEach((token, index) => {
    end += token.raw.length;
    if (token.type === "space" && token.raw.length > 1 && text.includes("\n", end) && !/^\s*$/.test(text.slice(end))) {
      count = index + 1;
    }
  });
  return count;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function safeUrl(href) {
  return !/^\s*[a-z][a-z0-9+.-]*:/i.test(href) || /^\s*(https?|mailto):/i.test(href);
}
