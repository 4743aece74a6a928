import { createHash } from "node:crypto";

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` characters of `alphabet` drawn from the SHA-256 of `seed`: the same seed, the same id, in every run. */
const draw = (seed: string, length: number, alphabet: string): string => {
  let out = "";
  for (let round = 0; out.length < length; round++) {
    for (const byte of createHash("sha256").update(`${round}:${seed}`).digest()) out += alphabet[byte % alphabet.length];
  }
  return out.slice(0, length);
};

/** Ids shaped like each provider's, derived from `seed` (the description and where in it the id is used). */
export const ids = {
  chatCompletion: (seed: string) => `chatcmpl-${draw(`chatCompletion|${seed}`, 29, base62)}`,
  openaiCall: (seed: string) => `call_${draw(`openaiCall|${seed}`, 24, base62)}`,
  response: (seed: string) => `resp_${draw(`response|${seed}`, 48, "0123456789abcdef")}`,
  responseMessage: (seed: string) => `msg_${draw(`responseMessage|${seed}`, 48, "0123456789abcdef")}`,
  functionCall: (seed: string) => `fc_${draw(`functionCall|${seed}`, 48, "0123456789abcdef")}`,
  anthropicMessage: (seed: string) => `msg_01${draw(`anthropicMessage|${seed}`, 22, base62)}`,
  toolUse: (seed: string) => `toolu_01${draw(`toolUse|${seed}`, 22, base62)}`,
  openaiRequest: (seed: string) => `req_${draw(`openaiRequest|${seed}`, 32, "0123456789abcdef")}`,
  anthropicRequest: (seed: string) => `req_011${draw(`anthropicRequest|${seed}`, 21, base62)}`,
} as const;
