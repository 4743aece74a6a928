/** A text to take out of what the prover writes (a secret, a local path), and what stands in its place. */
export interface Replacement {
  readonly find: string;
  readonly replace: string;
  /** A folder path: replaced only where the path ends or goes on with `/`, not inside a longer name. */
  readonly path?: boolean;
  /** The environment variable whose value this is: taking it out is a redaction the report counts. */
  readonly variable?: string;
}

const secretName = /KEY|TOKEN|SECRET|PASSWORD|AUTH|CREDENTIAL/i;
const minimumLength = 8;

/** What stands in place of a string shaped like a credential, wherever it came from. */
export const secretShaped = "[redacted:secret-shaped]";

/**
 * Where a credential-shaped string may begin: not inside a longer word (the `sk-` of `task-list`),
 * but after a JSON or C escape (`\n`, `\u003d`) or a URL's `%XX`, which end in a letter or digit.
 */
const start = String.raw`(?<=^|[^A-Za-z0-9_-]|\\[nrt]|\\u[0-9A-Fa-f]{4}|%[0-9A-Fa-f]{2})`;

/**
 * Where a token was cut short with an ellipsis, as Playwright cuts an element's text in a call log
 * and the prover cuts a long message: `…` as text, as UTF-8 bytes read as latin1, or JSON-escaped.
 */
const cutShort = String.raw`(?=…|\u00e2\u0080\u00a6|\\u2026)`;

/** A token: its prefix, then at least `length` characters of `body`, or at least 4 of them cut short. */
const token = (prefix: string, body: string, length: number) =>
  new RegExp(`${start}${prefix}(?:${body}{${length},}|${body}{4,}${cutShort})`, "g");

/** Credential shapes of common services, taken out even when no variable holds them (the app may print its own). */
const credentialShapes: ReadonlyArray<RegExp> = [
  // OpenAI (sk-…, sk-proj-…) and Anthropic (sk-ant-api03-…) keys.
  token("sk-", "[A-Za-z0-9_-]", 20),
  // Stripe secret and restricted keys.
  token("[sr]k_live_", "[A-Za-z0-9]", 20),
  // GitHub tokens: personal, OAuth, user-to-server, server-to-server, refresh, and fine-grained.
  token("gh[pousr]_", "[A-Za-z0-9]", 36),
  token("github_pat_", "[A-Za-z0-9_]", 22),
  // npm access tokens.
  token("npm_", "[A-Za-z0-9]", 36),
  // AWS access key ids (long-lived and temporary).
  token("(?:AKIA|ASIA)", "[0-9A-Z]", 16),
  // Slack tokens.
  token("xox[abprs]-", "[A-Za-z0-9-]", 10),
  // Google API keys.
  token("AIza", "[0-9A-Za-z_-]", 35),
  // A PEM private key, to its END line; one cut short, to the end of its base64 body (also as JSON escapes it).
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[A-Za-z0-9+/=\s\\]*(?:-----END [A-Z0-9 ]*PRIVATE KEY-----)?/g,
];

/** Every shape's beginning: a text holding none of them is not searched shape by shape (a trace can be megabytes). */
const shapePrefixes = /(?:sk-|[sr]k_live_|gh[pousr]_|github_pat_|npm_|AKIA|ASIA|xox[abprs]-|AIza|PRIVATE KEY-----)/;

/** What redaction took out, each value once: the variables whose values were found, and the credential-shaped strings. */
export interface Redactions {
  readonly variables: Set<string>;
  readonly shaped: Set<string>;
}

/** A fresh, empty Redactions to collect into. */
export const noRedactions = (): Redactions => ({ variables: new Set(), shaped: new Set() });

/** report.json's `redactions`: distinct values of each kind (a token cut short is not counted beside the whole). */
export function redactionCounts(redactions: Redactions) {
  const shaped = [...redactions.shaped];
  const whole = shaped.filter((value) => !shaped.some((other) => other !== value && other.startsWith(value)));
  return { environment: redactions.variables.size, secretShaped: whole.length };
}

/** Longest first, so a text containing another is replaced whole. */
const longestFirst = (replacements: Iterable<Replacement>) => [...replacements].sort((a, b) => b.find.length - a.find.length);

/** Values of secret-looking variables (name matching KEY, TOKEN, SECRET, …; value of 8 or more characters). */
export function secretsFrom(env: Readonly<Record<string, string | undefined>>): ReadonlyArray<Replacement> {
  const secrets = new Map<string, Replacement>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < minimumLength || !secretName.test(name)) continue;
    // The same value as it appears inside JSON text and inside a URL.
    for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
      if (!secrets.has(form)) secrets.set(form, { find: form, replace: `[redacted:${name}]`, variable: name });
    }
  }
  return longestFirst(secrets.values());
}

/** Folders of this machine and what a report shows instead: `<base>`, `~`, or a path relative to the checkout. */
export function pathsFrom(folders: ReadonlyArray<readonly [folder: string, shown: string]>): ReadonlyArray<Replacement> {
  return longestFirst(
    folders
      .filter(([folder]) => folder.length > 1)
      .flatMap(([folder, shown]) => [
        { find: `${folder}/`, replace: shown === "." ? "" : `${shown}/` },
        { find: folder, replace: shown, path: true },
      ]),
  );
}

/** Secrets and paths together, in the order they must be applied. */
export const combine = (...lists: ReadonlyArray<ReadonlyArray<Replacement>>): ReadonlyArray<Replacement> => longestFirst(lists.flat());

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** How many characters of a secret's value, cut short with an ellipsis, are enough to take the rest of it out. */
const cutShortLength = 4;

/** A secret's value cut short before a `…` (as excerpts are cut): its first `cutShortLength` or more characters, at a word's start. */
function cutShortValue(value: string): RegExp {
  const characters = [...value].map(escapeRegExp);
  const rest = characters.slice(cutShortLength, -1).reduceRight((inner, character) => `(?:${character}${inner})?`, "");
  return new RegExp(`${start}${characters.slice(0, cutShortLength).join("")}${rest}${cutShort}`, "g");
}

const ellipsis = /…|\u00e2\u0080\u00a6|\\u2026/;

/** Whether `bytes` may hold a secret's value cut short: its first characters and an ellipsis (as UTF-8 or JSON-escaped). */
const mayBeCutShort = (bytes: Buffer, { find, variable }: Replacement) =>
  variable !== undefined &&
  find.length > cutShortLength &&
  bytes.includes(find.slice(0, cutShortLength)) &&
  (bytes.includes("…") || bytes.includes("\\u2026"));

function replaceOne(text: string, { find, replace, path, variable }: Replacement, found: Redactions | undefined): string {
  const cutShortToo =
    variable !== undefined && find.length > cutShortLength && ellipsis.test(text) && text.includes(find.slice(0, cutShortLength));
  if (!text.includes(find) && !cutShortToo) return text;
  const whole =
    path === true ? text.replace(new RegExp(`${escapeRegExp(find)}(?![\\w.-])`, "g"), () => replace) : text.split(find).join(replace);
  const replaced = cutShortToo ? whole.replace(cutShortValue(find), () => replace) : whole;
  if (variable !== undefined && replaced !== text) found?.variables.add(variable);
  return replaced;
}

const hasCredentialShape = (text: string) => shapePrefixes.test(text) && credentialShapes.some((shape) => text.search(shape) !== -1);

function replaceShapes(text: string, found: Redactions | undefined): string {
  if (!shapePrefixes.test(text)) return text;
  return credentialShapes.reduce(
    (current, shape) =>
      current.replace(shape, (match) => {
        // A private key is one value whether its lines end in newlines or in JSON's `\n`.
        found?.shaped.add(match.replace(/\\[nrt]|\s/g, ""));
        return secretShaped;
      }),
    text,
  );
}

/** The prover's one redaction, for every text it writes: the replacements, then credential shapes; adds what it took out to `found`. */
export function redact(text: string, replacements: ReadonlyArray<Replacement>, found?: Redactions): string {
  return replaceShapes(
    replacements.reduce((current, replacement) => replaceOne(current, replacement, found), text),
    found,
  );
}

/**
 * The same for bytes (a file inside a trace); returns the input when none of them is in it.
 * `shapes: false` leaves credential shapes alone, for an image, whose bytes hold no text.
 */
export function redactBytes(bytes: Buffer, replacements: ReadonlyArray<Replacement>, found?: Redactions, shapes = true): Buffer {
  const hasValue = replacements.some((replacement) => bytes.includes(replacement.find) || mayBeCutShort(bytes, replacement));
  if (!hasValue && !shapes) return bytes;
  // latin1 maps each byte to one character and back, so UTF-8 text is matched byte for byte.
  const text = bytes.toString("latin1");
  if (!hasValue && !hasCredentialShape(text)) return bytes;
  const latin1 = (value: string) => Buffer.from(value).toString("latin1");
  const asBytes = replacements.map((replacement) => ({
    ...replacement,
    find: latin1(replacement.find),
    replace: latin1(replacement.replace),
  }));
  const replaced = asBytes.reduce((current, replacement) => replaceOne(current, replacement, found), text);
  return Buffer.from(shapes ? replaceShapes(replaced, found) : replaced, "latin1");
}
