// The commands past parsing: loaded by cli.ts only once the command line is valid, so a usage
// error or --help does not wait for the whole pipeline to load.
import type { Command } from "../options/index.ts";
import { bisect } from "../commands/bisect.ts";
import { compare } from "../commands/compare.ts";
import { demo } from "../commands/demo.ts";
import { init } from "../commands/init.ts";
import { merge } from "../commands/merge.ts";
import { prove } from "../commands/prove.ts";
import { publish } from "../commands/publish.ts";
import { runOneSideAt } from "../commands/run-at.ts";

/** Runs a parsed command other than help; returns the exit code. */
export function runCommand(command: Exclude<Command, { kind: "help" }>, cwd: string): Promise<number> {
  switch (command.kind) {
    case "demo":
      return demo(command.options, cwd);
    case "init":
      return init(cwd);
    case "publish":
      return publish(command.options, cwd);
    case "merge":
      return merge(command.options, cwd);
    case "bisect":
      return bisect(command.options, cwd);
    case "compare":
      return compare(command.options, cwd);
    case "run":
      return runOneSideAt(command.options, cwd);
    case "prove":
      return prove(command.options, cwd);
  }
}
