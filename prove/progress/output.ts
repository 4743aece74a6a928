import { redact, secretsFrom } from "../report/redact.ts";

/** The invoking environment's secrets: taken out of everything the CLI prints. */
export const secrets = secretsFrom(process.env);

export const writeOut = (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));

/** stderr is a log a person may paste somewhere: it is redacted like every report file. */
export const writeErr = (line: string) => void process.stderr.write(`${redact(line, secrets)}\n`);
