import { redact, secretsFrom } from "../report/redact.ts";

/** The invoking environment's secrets: taken out of everything the CLI prints. */
export const secrets = secretsFrom(process.env);

/** Writes `text` to stdout; resolves once it is written. */
export const writeOut = (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));

/** Writes a line to stderr, redacted: a person may paste it somewhere. */
export const writeErr = (line: string) => void process.stderr.write(`${redact(line, secrets)}\n`);
