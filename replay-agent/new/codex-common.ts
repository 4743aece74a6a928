import { draw, hex } from "./ids.ts";

/** What codex-exec and codex-app-server share: codex's ids, and its tools as shell commands. */

/** A UUID version 7 as codex names threads and turns (`019ad3f2-6c41-7b90-a2e5-3f8c1d07b6e4`), drawn from `seed` after a fixed time. */
export const codexId = (seed: string): string => {
  const digits = draw(`codexId|${seed}`, 19, hex);
  return `019ad3f2-${digits.slice(0, 4)}-7${digits.slice(4, 7)}-${"89ab"[hex.indexOf(digits[7] ?? "0") % 4] ?? "8"}${digits.slice(8, 11)}-${digits.slice(11, 19)}${digits.slice(0, 4)}`;
};

/** Codex runs its tools as shell commands: a described tool is `shell` with a string `command`. */
export const codexToolProblem = (call: {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}): { readonly problem: string; readonly fix: string } | undefined =>
  call.name === "shell" && typeof call.arguments["command"] === "string"
    ? undefined
    : {
        problem: `codex runs its tools as shell commands, so a tool call is "shell" with a "command" string, not ${JSON.stringify(call.name)} with ${JSON.stringify(call.arguments)}`,
        fix: `Write it like --tool 'shell {"command":"ls src"}'`,
      };

/** The command a described shell call runs. */
export const commandOf = (args: Readonly<Record<string, unknown>>): string => String(args["command"]);
