import { parseArgs } from "node:util";
import { UsageError } from "../errors.ts";

export const usage = `Usage:
  replay-agent serve --transcript <file> [--port <n>]   serve a transcript on 127.0.0.1 until SIGINT or SIGTERM
  replay-agent check <file>                             validate a transcript and print a summary

serve exits 0 when the transcript was fully played with no mismatch, else 1.
Invalid transcripts and bad usage exit 2.`;

/** A command line the CLI can run. */
export type Command =
  | { readonly command: "serve"; readonly transcript: string; readonly port: number }
  | { readonly command: "check"; readonly transcript: string }
  | { readonly command: "help" };

const parsePort = (text: string | undefined): number | UsageError => {
  if (text === undefined) return 0;
  const port = Number(text);
  return Number.isInteger(port) && port >= 0 && port <= 65535
    ? port
    : new UsageError({ detail: `--port takes a port number from 0 to 65535, got "${text}"` });
};

/** The command `argv` names, or a usage error saying what is missing. */
export const parseCommand = (argv: ReadonlyArray<string>): Command | UsageError => {
  const [command, ...rest] = argv;
  if (command === undefined) return new UsageError({ detail: "no command given" });
  if (command === "--help" || command === "-h" || command === "help") return { command: "help" };
  let parsed: ReturnType<typeof parseRest>;
  try {
    parsed = parseRest(rest);
  } catch (error) {
    return new UsageError({ detail: error instanceof Error ? error.message : String(error) });
  }
  const { values, positionals } = parsed;
  switch (command) {
    case "serve": {
      if (values.transcript === undefined) return new UsageError({ detail: "serve needs --transcript <file>" });
      if (positionals.length > 0) return new UsageError({ detail: `serve takes no positional arguments, got ${positionals.join(" ")}` });
      const port = parsePort(values.port);
      return port instanceof UsageError ? port : { command, transcript: values.transcript, port };
    }
    case "check": {
      const [transcript, ...extra] = positionals;
      if (transcript === undefined || extra.length > 0 || values.port !== undefined) {
        return new UsageError({ detail: "check takes exactly one transcript file" });
      }
      return { command, transcript };
    }
    default:
      return new UsageError({ detail: `unknown command "${command}"` });
  }
};

const parseRest = (args: ReadonlyArray<string>) =>
  parseArgs({
    args: [...args],
    options: { transcript: { type: "string" }, port: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
