import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import * as Effect from "effect/Effect";
import { writeGithubFiles } from "../ci/github.ts";
import { Git } from "../git/git.ts";
import { Progress } from "../progress/progress.ts";
import { publishReport } from "../publish/index.ts";
import type { PublishTarget } from "../options/index.ts";

/** What a finished proof or merge hands on: its verdict and the folder holding report.md or summary.md. */
export interface Finished {
  readonly verdict: string;
  readonly exitCode: number;
  /** Absolute. */
  readonly dir: string;
}

/**
 * Publishes the report folder to the target branch of the invoking checkout's remote and returns
 * pr.md's path. A folder outside any checkout, or a push that fails, is an error whose message
 * says what to change.
 */
export const publishFolder = Effect.fn("Cli.publish")(function* (dir: string, target: PublishTarget, cwd: string) {
  const git = yield* Git;
  const progress = yield* Progress;
  const repo = yield* git.toplevel(cwd);
  const result = yield* progress.step(
    { step: "publish", detail: `${target.remote} ${target.branch}` },
    publishReport({ reportDir: dir, repo, remote: target.remote, branch: target.branch, imageUrl: target.imageUrl }),
  );
  return result.prFile;
});

/**
 * The verdict a report folder holds, for `publish` run on its own: a proof's (report.json), a
 * multi-scenario proof's (summary.json), a comparison's reason code (compare.json) or a
 * bisection's result (bisect.json).
 */
export async function readFinished(dir: string): Promise<Finished | undefined> {
  for (const [name, field] of [
    ["summary.json", "verdict"],
    ["report.json", "verdict"],
    ["compare.json", "reasonCode"],
    ["bisect.json", "result"],
  ] as const) {
    const text = await readFile(join(dir, name), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      const verdict = value[field];
      if (typeof verdict === "string" && typeof value["exitCode"] === "number")
        return { verdict, exitCode: value["exitCode"], dir: resolve(dir) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** In a GitHub Actions job: the step summary and the step's outputs (verdict, exit-code, report-dir, pr-md). Returns what was written, for a line of progress. */
export function githubFiles(finished: Finished, prFile: string | undefined): Promise<ReadonlyArray<string>> {
  return writeGithubFiles(process.env, {
    verdict: finished.verdict,
    exitCode: finished.exitCode,
    reportDir: finished.dir,
    ...(prFile === undefined ? {} : { prFile }),
  });
}
