import * as Predicate from "effect/Predicate";

/** How many characters of a request's text an excerpt keeps. */
const excerptLength = 200;

/** `text` cut after `excerptLength` characters, and how many were cut. */
const cut = (text: string): { readonly kept: string; readonly more: number } => {
  const characters = [...text];
  return { kept: characters.slice(0, excerptLength).join(""), more: Math.max(0, characters.length - excerptLength) };
};

const moreCharacters = (more: number) => ` (${more} more character${more === 1 ? "" : "s"})`;

/**
 * A value as an excerpt shows it: a string in JSON quotes, anything else as its JSON, cut after
 * `excerptLength` characters. The `…` comes right after the last character kept (inside the
 * quotes), so a credential cut short there still reads as one to the prover's redaction.
 */
const shown = (value: unknown): string => {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const { kept, more } = cut(text);
  if (typeof value === "string") return more === 0 ? JSON.stringify(text) : `${JSON.stringify(kept).slice(0, -1)}…"${moreCharacters(more)}`;
  return more === 0 ? text : `${kept}…${moreCharacters(more)}`;
};

/**
 * The text of a message's content: a string, or the text of its parts (OpenAI's `text` and
 * `input_text` parts, Anthropic's `text` blocks) joined; undefined when it holds no text.
 */
const contentText = (content: unknown): string | undefined => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((part: unknown) => (Predicate.isObject(part) && typeof part["text"] === "string" ? [part["text"]] : []));
  return texts.length === 0 ? undefined : texts.join("\n");
};

/** The last item of a chat's `messages` or a Responses `input`: `last user message: "…"`, or `last item (function_call_output): "…"`. */
const lastItem = (items: ReadonlyArray<unknown>): string => {
  const last = items.at(-1);
  if (!Predicate.isObject(last)) return `last item: ${shown(last)}`;
  const role = typeof last["role"] === "string" ? last["role"] : undefined;
  const type = typeof last["type"] === "string" && last["type"] !== "message" ? last["type"] : undefined;
  const what = role !== undefined ? `last ${role} message` : `last item (${type ?? "no role"})`;
  return `${what}: ${shown(contentText(last["content"]) ?? last["content"] ?? last["output"] ?? last["arguments"] ?? last)}`;
};

/** What an HTTP body said, by the shape the providers give it. */
const bodyExcerpt = (body: unknown): string => {
  if (body === undefined) return "no body";
  if (Predicate.isObject(body)) {
    const messages = body["messages"];
    if (Array.isArray(messages) && messages.length > 0) return lastItem(messages);
    const input = body["input"];
    if (typeof input === "string") return `input: ${shown(input)}`;
    if (Array.isArray(input) && input.length > 0) return lastItem(input);
  }
  return `body: ${shown(body)}`;
};

/** What a JSON-RPC message said: a request's or notification's params, a response's result or error. */
const messageExcerpt = (message: { readonly [key: string]: unknown }): string => {
  for (const field of ["params", "result", "error"]) {
    if (field in message) return `${field}: ${shown(message[field])}`;
  }
  return `message: ${shown(message)}`;
};

/**
 * A short text naming what a request said, to tell an unexpected request apart in a mismatch:
 * for an HTTP request (`{ method, path, body }`) its last message's text (OpenAI chat and
 * Anthropic `messages`, a Responses `input`), else its body; for a JSON-RPC message its params.
 * At most `excerptLength` characters of the text, saying how many more there were.
 */
export const requestExcerpt = (request: unknown): string => {
  if (Predicate.isObject(request) && typeof request["method"] === "string" && typeof request["path"] === "string") {
    return bodyExcerpt(request["body"]);
  }
  return Predicate.isObject(request) ? messageExcerpt(request) : `message: ${shown(request)}`;
};
