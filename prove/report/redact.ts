/** A value from the environment that must never appear in a report, a log or a trace. */
export interface Secret {
  readonly name: string;
  readonly value: string;
}

const secretName = /KEY|TOKEN|SECRET|PASSWORD|AUTH|CREDENTIAL/i;
const minimumLength = 8;

/** Values of secret-looking variables (name matching KEY, TOKEN, SECRET, …; value of 8 or more characters). */
export function secretsFrom(env: Readonly<Record<string, string | undefined>>): ReadonlyArray<Secret> {
  const secrets = new Map<string, Secret>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < minimumLength || !secretName.test(name)) continue;
    // The same value as it appears inside JSON text and inside a URL.
    for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
      if (!secrets.has(form)) secrets.set(form, { name, value: form });
    }
  }
  // Longest first, so a secret containing another is replaced whole.
  return [...secrets.values()].sort((a, b) => b.value.length - a.value.length);
}

const placeholder = (secret: Secret) => `[redacted:${secret.name}]`;

/** The one redaction of the prover: every text it writes passes through here. */
export function redact(text: string, secrets: ReadonlyArray<Secret>): string {
  let result = text;
  for (const secret of secrets) {
    if (result.includes(secret.value)) result = result.split(secret.value).join(placeholder(secret));
  }
  return result;
}

/** The same for bytes (a file inside a trace); returns the input when it holds no secret. */
export function redactBytes(bytes: Buffer, secrets: ReadonlyArray<Secret>): Buffer {
  if (!secrets.some((secret) => bytes.includes(secret.value))) return bytes;
  let result = bytes;
  for (const secret of secrets) {
    const needle = Buffer.from(secret.value);
    const replacement = Buffer.from(placeholder(secret));
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = result.indexOf(needle, from); at !== -1; at = result.indexOf(needle, from)) {
      parts.push(result.subarray(from, at), replacement);
      from = at + needle.length;
    }
    if (parts.length > 0) result = Buffer.concat([...parts, result.subarray(from)]);
  }
  return result;
}
