import { createHash } from "node:crypto";

export const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const hex = "0123456789abcdef";
export const base36 = "0123456789abcdefghijklmnopqrstuvwxyz";
const padding = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const base64 = `${base62.slice(10)}${base62.slice(0, 10)}+/`;

/** `length` characters of `alphabet` drawn from the SHA-256 of `seed`: the same seed, the same id, in every run. */
export const draw = (seed: string, length: number, alphabet: string): string => {
  let out = "";
  for (let round = 0; out.length < length; round++) {
    for (const byte of createHash("sha256").update(`${round}:${seed}`).digest()) out += alphabet[byte % alphabet.length];
  }
  return out.slice(0, length);
};

/** A version 4 UUID drawn from `seed`: `8-4-4-4-12` hex digits, the version and variant digits set. */
export const uuid = (seed: string): string => {
  const digits = draw(seed, 30, hex);
  const variant = "89ab"[hex.indexOf(digits[15] ?? "0") % 4] ?? "8";
  return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-4${digits.slice(12, 15)}-${variant}${digits.slice(16, 19)}-${digits.slice(19, 30)}${digits[0] ?? "0"}`;
};

/** Ids shaped like each provider's, derived from `seed` (the description and where in it the id is used). */
export const ids = {
  chatCompletion: (seed: string) => `chatcmpl-${draw(`chatCompletion|${seed}`, 29, base62)}`,
  openaiCall: (seed: string) => `call_${draw(`openaiCall|${seed}`, 24, base62)}`,
  response: (seed: string) => `resp_${draw(`response|${seed}`, 48, hex)}`,
  responseMessage: (seed: string) => `msg_${draw(`responseMessage|${seed}`, 48, hex)}`,
  reasoning: (seed: string) => `rs_${draw(`reasoning|${seed}`, 48, hex)}`,
  functionCall: (seed: string) => `fc_${draw(`functionCall|${seed}`, 48, hex)}`,
  anthropicMessage: (seed: string) => `msg_01${draw(`anthropicMessage|${seed}`, 22, base62)}`,
  toolUse: (seed: string) => `toolu_01${draw(`toolUse|${seed}`, 22, base62)}`,
  /** A thinking block's signature: base64 of the encrypted thinking, as Anthropic sends it. */
  thinkingSignature: (seed: string) => `Eq${draw(`thinkingSignature|${seed}`, 318, base64)}==`,
  openaiRequest: (seed: string) => `req_${draw(`openaiRequest|${seed}`, 32, hex)}`,
  anthropicRequest: (seed: string) => `req_011${draw(`anthropicRequest|${seed}`, 21, base62)}`,
  geminiResponse: (seed: string) => draw(`geminiResponse|${seed}`, 23, base62),
  /** A Gemini thought signature: base64 of the encrypted thinking, on the part that follows it. */
  thoughtSignature: (seed: string) => `Cr${draw(`thoughtSignature|${seed}`, 254, base64)}==`,
  /** The `p` field Bedrock pads each stream event with (so its size says nothing of the tokens): the alphabet, cut at a random length. */
  bedrockPadding: (seed: string) => padding.slice(0, 1 + padding.indexOf(draw(`bedrockPadding|${seed}`, 1, padding))),
  bedrockToolUse: (seed: string) => `tooluse_${draw(`bedrockToolUse|${seed}`, 22, base62)}`,
  awsRequest: (seed: string) => uuid(`awsRequest|${seed}`),
  cohereMessage: (seed: string) => uuid(`cohereMessage|${seed}`),
  /** Cohere names a tool call after its tool: `read_file_1ymjcxhw9gqa`. */
  cohereToolCall: (seed: string, name: string) => `${name}_${draw(`cohereToolCall|${seed}`, 12, base36)}`,
} as const;
