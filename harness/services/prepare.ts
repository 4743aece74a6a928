import { HarnessError } from "../errors.ts";
import { logExcerpt } from "../log-excerpt.ts";
import { killServiceProcesses, markedEnv } from "./processes.ts";
import { startRecorded } from "./recorded-process.ts";

/**
 * Runs `app.prepare`'s commands in order in the app's folder with the app's environment (each with a run marker, so a
 * daemon one leaves is stopped); a failing one is a boot error naming it, its exit code and its output.
 */
export async function runPrepare(input: {
  /** Each command as the config writes it (shown in an error), and as it runs (its placeholders filled). */
  readonly commands: ReadonlyArray<{ readonly written: string; readonly run: string }>;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly record: (chunk: string) => void;
}): Promise<void> {
  for (const { written, run } of input.commands) {
    const { env, runId } = markedEnv(input.env);
    const { child, recent } = startRecorded(run, undefined, { cwd: input.cwd, env }, input.record);
    const result = await child;
    await killServiceProcesses(runId, undefined);
    if (result.exitCode !== 0) {
      const how = result.signal !== undefined ? `was killed by ${result.signal}` : `exited with code ${String(result.exitCode)}`;
      throw new HarnessError(
        "boot",
        `app.prepare's \`${written}\` ${how}: fix the command in the scenario config, or the app's migration. Its output:\n${logExcerpt(recent())}`,
      );
    }
  }
}
