import { readFile } from "node:fs/promises";
import * as Effect from "effect/Effect";
import { StepFailed } from "../errors.ts";
import { tail } from "../outcome/error-text.ts";
import { runCommand } from "../process/run-command.ts";
import { npmErrorBlock } from "./npm-error.ts";

/** Variables a package manager sets for the script that started the prover; they would confuse the side's install. */
const scriptVariables =
  /^(npm_package_|npm_lifecycle_|npm_command$|npm_execpath$|npm_node_execpath$|PNPM_PACKAGE_NAME$|PNPM_SCRIPT_SRC_DIR$|INIT_CWD$)/;

/** The environment of a side's install and build: the developer's (so caches are shared), minus the starting script's variables. */
export function installEnvironment(developer: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(developer)) {
    if (value !== undefined && !scriptVariables.test(name)) env[name] = value;
  }
  env.CI = "true";
  env.npm_config_update_notifier = "false";
  return env;
}

/** The environment one install or build command runs with: the install environment, with the command's own variables over it. */
export function stepEnvironment(command: Pick<StepCommand, "env">): Record<string, string> {
  return { ...installEnvironment(process.env), ...command.env };
}

export interface StepCommand {
  readonly label: string;
  readonly command: string;
  readonly args: ReadonlyArray<string> | undefined;
  readonly cwd: string;
  /** Variables for this command alone, over the install environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Runs one side's install or build; a non-zero exit fails with StepFailed and the log's tail.
 * `where` names the folder in messages, relative to the repository (the worktree goes away).
 */
export const runStep = Effect.fn("Side.runStep")(function* (
  step: StepFailed["step"],
  command: StepCommand,
  logFile: string,
  where: string,
) {
  const result = yield* runCommand({
    command: command.command,
    args: command.args,
    cwd: command.cwd,
    env: stepEnvironment(command),
    logFile,
    stopSignal: "SIGTERM",
    stopGrace: "5 seconds",
  });
  if (result.exitCode === 0) return;
  const log = yield* Effect.promise(() => readFile(logFile, "utf8").catch(() => ""));
  const shown = tail(log);
  const npmError = npmErrorBlock(log);
  // npm states its error first and its usage after it: the tail alone can miss it.
  const decisive = npmError === undefined || shown.includes(npmError) ? "" : `${npmError}\n[npm's usage text and the rest of the log:]`;
  const logTail = [decisive, shown, result.startError ?? ""].filter((text) => text !== "").join("\n");
  return yield* Effect.fail(new StepFailed({ step, command: command.label, where, exitCode: result.exitCode, logTail }));
});
