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
 * `input_text` parts, Anthropic's `text` blocks, Gemini's text parts, Bedrock's text blocks) joined;
 * undefined when it holds no text.
 */
const contentText = (content: unknown): string | undefined => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((part: unknown) => (Predicate.isObject(part) && typeof part["text"] === "string" ? [part["text"]] : []));
  return texts.length === 0 ? undefined : texts.join("\n");
};

/**
 * One item of a conversation (`prefix` "last " for the last of a list): `user message: "…"`, or
 * `item (function_call_output): "…"`. Its text is its `content`, or a Gemini content's `parts`.
 */
const itemExcerpt = (item: unknown, prefix: string): string => {
  if (!Predicate.isObject(item)) return `${prefix}item: ${shown(item)}`;
  const role = typeof item["role"] === "string" ? item["role"] : undefined;
  const type = typeof item["type"] === "string" && item["type"] !== "message" ? item["type"] : undefined;
  const what = role !== undefined ? `${prefix}${role} message` : `${prefix}item (${type ?? "no role"})`;
  const content = item["content"] ?? item["parts"];
  return `${what}: ${shown(contentText(content) ?? content ?? item["output"] ?? item["arguments"] ?? item)}`;
};

/** The item an OpenAI Realtime `conversation.item.create` adds, or undefined for any other message. */
const createdItem = (message: { readonly [key: string]: unknown }): string | undefined =>
  message["type"] === "conversation.item.create" && Predicate.isObject(message["item"]) ? itemExcerpt(message["item"], "") : undefined;

/**
 * What an HTTP body (or a WebSocket message, as the server's status holds it) said, by the shape the
 * providers give it: a list of messages, contents or input items, a string prompt, a Realtime item.
 */
const bodyExcerpt = (body: unknown): string => {
  if (body === undefined) return "no body";
  if (Predicate.isObject(body)) {
    const item = createdItem(body);
    if (item !== undefined) return item;
    for (const field of ["messages", "contents", "input"]) {
      const items = body[field];
      if (Array.isArray(items) && items.length > 0) return itemExcerpt(items.at(-1), "last ");
    }
    for (const field of ["input", "prompt"]) {
      const text = body[field];
      if (typeof text === "string") return `${field}: ${shown(text)}`;
    }
  }
  return `body: ${shown(body)}`;
};

/**
 * What a message said: the item an OpenAI Realtime `conversation.item.create` adds, a JSON-RPC
 * request's or notification's params, a response's result or error, else the whole message.
 */
const messageExcerpt = (message: { readonly [key: string]: unknown }): string => {
  const item = createdItem(message);
  if (item !== undefined) return item;
  for (const field of ["params", "result", "error"]) {
    if (field in message) return `${field}: ${shown(message[field])}`;
  }
  return `message: ${shown(message)}`;
};

/**
 * A short text naming what a request said, to tell an unexpected request apart in a mismatch:
 * for an HTTP request (`{ method, path, body }`) its last message's text (the `messages` of
 * OpenAI chat, Anthropic, Cohere, Ollama and Bedrock, Gemini's `contents`, a Responses `input`),
 * its prompt (a Responses `input` or Ollama `prompt` string), else its body; for a message the item
 * a Realtime `conversation.item.create` adds, or a JSON-RPC message's params.
 * At most `excerptLength` characters of the text, saying how many more there were.
 */
export const requestExcerpt = (request: unknown): string => {
  if (Predicate.isObject(request) && typeof request["method"] === "string" && typeof request["path"] === "string") {
    return bodyExcerpt(request["body"]);
  }
  return Predicate.isObject(request) ? messageExcerpt(request) : `message: ${shown(request)}`;
};
