/**
 * What the prover writes must not carry a secret of the environment or a path of this machine.
 * A replacement names a piece of text and what stands in its place.
 */
export interface Replacement {
  readonly find: string;
  readonly replace: string;
  /** A folder path: replaced only where the path ends or goes on with `/`, not inside a longer name. */
  readonly path?: boolean;
}

const secretName = /KEY|TOKEN|SECRET|PASSWORD|AUTH|CREDENTIAL/i;
const minimumLength = 8;

/** Longest first, so a text containing another is replaced whole. */
const longestFirst = (replacements: Iterable<Replacement>) => [...replacements].sort((a, b) => b.find.length - a.find.length);

/** Values of secret-looking variables (name matching KEY, TOKEN, SECRET, …; value of 8 or more characters). */
export function secretsFrom(env: Readonly<Record<string, string | undefined>>): ReadonlyArray<Replacement> {
  const secrets = new Map<string, Replacement>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < minimumLength || !secretName.test(name)) continue;
    // The same value as it appears inside JSON text and inside a URL.
    for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
      if (!secrets.has(form)) secrets.set(form, { find: form, replace: `[redacted:${name}]` });
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

function replaceOne(text: string, { find, replace, path }: Replacement): string {
  if (!text.includes(find)) return text;
  return path === true ? text.replace(new RegExp(`${escapeRegExp(find)}(?![\\w.-])`, "g"), () => replace) : text.split(find).join(replace);
}

/** The one redaction of the prover: every text it writes passes through here. */
export function redact(text: string, replacements: ReadonlyArray<Replacement>): string {
  return replacements.reduce(replaceOne, text);
}

/** The same for bytes (a file inside a trace); returns the input when none of them is in it. */
export function redactBytes(bytes: Buffer, replacements: ReadonlyArray<Replacement>): Buffer {
  if (!replacements.some((replacement) => bytes.includes(replacement.find))) return bytes;
  // latin1 maps each byte to one character and back, so UTF-8 text is matched byte for byte.
  const latin1 = (text: string) => Buffer.from(text).toString("latin1");
  const asBytes = replacements.map((replacement) => ({ ...replacement, find: latin1(replacement.find), replace: latin1(replacement.replace) }));
  return Buffer.from(redact(bytes.toString("latin1"), asBytes), "latin1");
}
