import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";

/** `argv` as one POSIX shell command line. */
export const shellQuote = (argv: ReadonlyArray<string>): string =>
  argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`)).join(" ");

/** The launcher's text: a POSIX shell script that replaces itself with `command`, the arguments it was given appended. */
const script = (command: ReadonlyArray<string>): string =>
  [
    "#!/bin/sh",
    "# replay-agent launcher: starts the stdio replay agent with the arguments the app passes.",
    `exec ${shellQuote(command)} "$@"`,
    "",
  ].join("\n");

/**
 * Writes an executable launcher called `name` in a temporary folder of its own, which runs
 * `command` with the arguments it is given: a path an app can take as its agent's binary, or a
 * folder to put first on PATH. The folder is removed when the scope closes.
 */
export const writeLauncher = (name: string, command: ReadonlyArray<string>): Effect.Effect<string, Error, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const dir = await mkdtemp(join(tmpdir(), "replay-agent-launcher-"));
        const file = join(dir, name);
        await writeFile(file, script(command));
        await chmod(file, 0o755);
        return { dir, file };
      },
      catch: (error) => new Error(`cannot write the stdio agent's launcher: ${error instanceof Error ? error.message : String(error)}`),
    }),
    ({ dir }) => Effect.promise(() => rm(dir, { recursive: true, force: true })),
  ).pipe(Effect.map(({ file }) => file));
