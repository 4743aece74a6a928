import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseCommand, usage, type Command } from "./options/index.ts";
import { writeErr, writeOut } from "./progress/output.ts";
import { UsageError } from "./errors.ts";

/** The prove-scenario command: parses argv (without node and the script) and returns the exit code. */
export async function main(argv: ReadonlyArray<string>, cwd: string = process.cwd()): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv, (typed) => existsSync(resolve(cwd, typed)));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    writeErr(error.message);
    return argv[0] === "run" ? 125 : 2;
  }
  if (command.kind === "help") {
    await writeOut(`${usage}\n`);
    return 0;
  }
  // The pipeline loads only for a valid command: a usage error or --help answers at once.
  const { runCommand } = await import("./cli/commands.ts");
  return runCommand(command, cwd);
}
