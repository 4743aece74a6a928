import * as Predicate from "effect/Predicate";

/**
 * Keeps credentials out of a recording: headers that carry them are dropped, and key-shaped
 * strings (sk-…, sk-ant-…, ghp_… and other GitHub tokens, npm_…, AWS key ids, Slack and Google
 * keys, Bearer …, `?key=…` and similar query parameters), the key the recorder forwards with and
 * the values of the secret-looking variables of its environment are cut out of every string
 * that is written.
 */

const credentialHeader = /authorization|api-?key|cookie|token|secret|password/i;

/** Header names that describe one connection or transfer, never what the provider said. */
const transferHeaders = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "host",
  "te",
  "trailer",
  "upgrade",
  "proxy-connection",
]);

/** Whether a header describes one connection or transfer, so it is never passed on. */
export const isTransferHeader = (name: string): boolean => transferHeaders.has(name.toLowerCase());

/** Whether a header may be forwarded upstream or recorded: not a credential, not a transfer detail. */
export const isKeptHeader = (name: string): boolean => !credentialHeader.test(name) && !isTransferHeader(name);

const keyShapes: ReadonlyArray<{ readonly pattern: RegExp; readonly group: number }> = [
  { pattern: /\bBearer\s+([A-Za-z0-9._~+/=-]{6,})/gi, group: 1 },
  { pattern: /\b(sk-[A-Za-z0-9_-]{12,})/g, group: 1 },
  { pattern: /\b((?:gh[pousr]_[A-Za-z0-9]{20,})|(?:github_pat_[A-Za-z0-9_]{20,}))/g, group: 1 },
  { pattern: /\b(npm_[A-Za-z0-9]{36,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35})/g, group: 1 },
  { pattern: /[?&](?:api[_-]?key|key|token|access_token|secret)=([^&#\s"]+)/gi, group: 1 },
];

export const redacted = "[redacted]";

/**
 * Values of the secret-looking variables of an environment (name matching KEY, TOKEN, SECRET, …;
 * value of 8 or more characters), the rule the prover's report follows: an app being recorded can
 * send one to the provider (a tool's output of `env`), and the transcript is committed.
 */
export const secretValues = (env: Readonly<Record<string, string | undefined>>): ReadonlyArray<string> =>
  Object.entries(env).flatMap(([name, value]) =>
    value !== undefined && value.length >= 8 && /KEY|TOKEN|SECRET|PASSWORD|AUTH|CREDENTIAL/i.test(name) ? [value] : [],
  );

type Range = readonly [start: number, end: number];

/** Where secrets sit in `text`, merged and in order. */
const secretRanges = (text: string, secrets: ReadonlyArray<string>): ReadonlyArray<Range> => {
  const ranges: Array<Range> = [];
  for (const secret of secrets) {
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length)) ranges.push([at, at + secret.length]);
  }
  for (const { pattern, group } of keyShapes) {
    for (const match of text.matchAll(pattern)) {
      const value = match[group] ?? "";
      const start = match.index + match[0].length - value.length;
      ranges.push([start, start + value.length]);
    }
  }
  ranges.sort(([a], [b]) => a - b);
  return ranges.reduce<Array<Range>>((merged, range) => {
    const last = merged.at(-1);
    if (last !== undefined && range[0] <= last[1]) merged[merged.length - 1] = [last[0], Math.max(last[1], range[1])];
    else merged.push(range);
    return merged;
  }, []);
};

/** The pieces of `text` around its secrets. */
const piecesAround = (text: string, ranges: ReadonlyArray<Range>): ReadonlyArray<string> => {
  const pieces: Array<string> = [];
  let from = 0;
  for (const [start, end] of ranges) {
    pieces.push(text.slice(from, start));
    from = end;
  }
  pieces.push(text.slice(from));
  return pieces;
};

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

const mapStrings = (value: unknown, map: (text: string) => unknown): unknown => {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (Predicate.isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  return value;
};

/** A redactor that also cuts out `secrets` (the real keys the recorder forwards with), whatever their shape. */
export const makeRedactor = (secrets: ReadonlyArray<string>) => {
  const known = secrets.filter((secret) => secret.length >= 4);
  const text = (value: string): string => {
    const ranges = secretRanges(value, known);
    return ranges.length === 0 ? value : piecesAround(value, ranges).join(redacted);
  };
  return {
    text,
    /** Every string in a JSON value, redacted. */
    value: (value: unknown): unknown => mapStrings(value, text),
    /**
     * A request path or body as an expect_outbound pattern: a string that held a secret becomes a
     * `$regex` matching it with any secret in its place, so the recording still replays.
     */
    pattern: (value: unknown): unknown =>
      mapStrings(value, (item) => {
        const ranges = secretRanges(item, known);
        return ranges.length === 0 ? item : { $regex: `^${piecesAround(item, ranges).map(escapeRegex).join("\\S+")}$` };
      }),
    /** The headers worth recording, with their values redacted. */
    headers: (headers: Headers): Readonly<Record<string, string>> =>
      Object.fromEntries(
        [...headers.entries()].filter(([name]) => isKeptHeader(name) && name !== "set-cookie").map(([name, value]) => [name, text(value)]),
      ),
  };
};

export type Redactor = ReturnType<typeof makeRedactor>;
