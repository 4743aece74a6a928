import { join, resolve } from "node:path";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import type { MergeOptions } from "../options/index.ts";
import type { Ran } from "../engine/run.ts";
import { afterReport, printRan, runWithServices } from "../engine/terminal.ts";
import { OutBusy, ReportWriteFailed } from "../errors.ts";
import { Git } from "../git/git.ts";
import { claimReportFolder } from "../engine/report-claim.ts";
import { writeErr, writeOut } from "../progress/output.ts";
import { MergeRefused } from "../summary/errors.ts";
import { mergeSummaries } from "../summary/merge.ts";
import { readSummary } from "../summary/write-summary.ts";
import { summaryPresenter } from "./prove-many.ts";

/** `merge <dir>...`: one summary from a proof's shards; exit code as for the proof of all of them. */
export async function merge(options: MergeOptions, cwd: string): Promise<number> {
  try {
    const dirs = options.dirs.map((dir) => resolve(cwd, dir));
    const first = await readSummary(dirs[0] ?? cwd);
    const toplevel = Effect.gen(function* () {
      const git = yield* Git;
      return yield* git.toplevel(cwd);
    });
    const root = await runWithServices(toplevel.pipe(Effect.orElseSucceed(() => cwd)));
    const out =
      options.out === undefined
        ? join(root, "reports", `${first?.base.sha?.slice(0, 7) ?? "base"}-${first?.head.sha?.slice(0, 7) ?? "head"}`)
        : resolve(cwd, options.out);
    // The folder is held while the merge writes it, as a proof holds its own: a merge or a proof
    // writing it at the same time would mix their files.
    const merged = Effect.scoped(
      Effect.gen(function* () {
        const dir = yield* claimReportFolder(out, options.out);
        const summary = yield* Effect.tryPromise({ try: () => mergeSummaries(dirs, dir), catch: (error) => error });
        return { summary, dir };
      }),
    );
    const result = await runWithServices(Effect.result(merged));
    if (Result.isFailure(result)) throw result.failure;
    const { summary, dir } = result.success;
    const ran: Ran<typeof summary> = {
      exitCode: summary.exitCode,
      report: summary,
      reportFile: join(dir, summary.markdown),
      message: undefined,
    };
    printRan(ran, summaryPresenter);
    if (options.json) await writeOut(`${JSON.stringify(summary, null, 2)}\n`);
    return afterReport(ran, summaryPresenter, options.publish, cwd);
  } catch (error) {
    if (!(error instanceof MergeRefused || error instanceof OutBusy || error instanceof ReportWriteFailed)) throw error;
    writeErr(error.message);
    return 2;
  }
}
