import { resolve } from "node:path";
import type { PublishOptions } from "../options/index.ts";
import { readFinished } from "../engine/finish.ts";
import { finish, withSignals } from "../engine/terminal.ts";
import { writeErr } from "../progress/output.ts";

/** `publish <dir>`: publishes a report folder a proof wrote and writes its pr.md. */
export async function publish(options: PublishOptions, cwd: string): Promise<number> {
  const dir = resolve(cwd, options.dir);
  const finished = await readFinished(dir);
  if (finished === undefined) {
    writeErr(
      `publish: ${dir} holds no report.json, summary.json, compare.json or bisect.json. Pass the folder a proof, a comparison or a bisection wrote (it holds report.md, summary.md, compare.md or bisect.md).`,
    );
    return 2;
  }
  return withSignals((signals) => finish(finished, options, cwd, false, signals.interrupt));
}
