/**
 * Text cut into the pieces a provider streams: one token per delta, split the way OpenAI's
 * cl100k tokenizer splits text before it merges bytes (words with their leading space,
 * numbers of up to three digits, runs of punctuation). Real tokens are often smaller than
 * these pieces; the boundaries are what an app sees, and they are where real ones fall.
 */
const pieces = /'(?:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/giu;

/** `text` as token-sized pieces that join back to exactly `text`. */
export const tokenize = (text: string): ReadonlyArray<string> => text.match(pieces) ?? [];

/** A made-up but plausible token count for an answer: one per delta it streams, and four more a tool call. */
export const outputTokens = (
  answer: { readonly thinking?: string | undefined; readonly reply?: string | undefined },
  calls: ReadonlyArray<{ readonly arguments: unknown }>,
): number =>
  tokenize(answer.thinking ?? "").length +
  tokenize(answer.reply ?? "").length +
  calls.reduce((sum, call) => sum + 4 + tokenize(JSON.stringify(call.arguments)).length, 0);

/** Consecutive pieces joined `size` at a time: how Anthropic streams a tool's input JSON. */
export const group = (tokens: ReadonlyArray<string>, size: number): ReadonlyArray<string> =>
  Array.from({ length: Math.ceil(tokens.length / size) }, (_, index) => tokens.slice(index * size, (index + 1) * size).join(""));

/** A tool's arguments as Python's json.dumps writes them, the way Anthropic streams a tool_use input: `{"path": "src"}`. */
export const spacedJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${spacedJson(item)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
};
