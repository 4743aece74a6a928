import { constants } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import * as Effect from "effect/Effect";
import type { ScenarioOptions } from "../options/index.ts";
import { OutInsideRepo, ReportWriteFailed } from "../errors.ts";
import { Git } from "../git/git.ts";
import { repositoryUnderTest } from "./scenario.ts";

/**
 * The report folder as the file system will see it: the real path of its nearest folder that
 * exists, with the rest appended, or why the report could not be written there.
 */
async function reachable(dir: string): Promise<{ readonly real: string } | { readonly problem: string }> {
  const below: string[] = [];
  for (let existing = dir; ; existing = dirname(existing)) {
    const info = await stat(existing).catch(() => undefined);
    if (info === undefined && dirname(existing) !== existing) {
      below.unshift(basename(existing));
      continue;
    }
    if (info === undefined) return { problem: `no folder of ${dir} exists` };
    if (!info.isDirectory()) return { problem: `${existing} is a file, not a folder` };
    // access() is not enough for root, who may write anywhere: a file on the way is what stops everyone.
    const writable = await access(existing, constants.W_OK).then(
      () => true,
      () => false,
    );
    if (!writable) return { problem: `${existing} is not writable` };
    return { real: join(await realpath(existing), ...below) };
  }
}

/**
 * Checks --out before anything runs, so a proof does not run for minutes to fail at its report:
 * it must be a folder that can be written, and not one inside the repository under test that git
 * would show as changed (a report there would dirty the repository the proof promises to leave
 * alone). `repo` is undefined when it is not known yet (a wrong --repo, which is said later).
 */
export const validateOutFolder = Effect.fn("Proof.validateOutFolder")(function* (typed: string, dir: string, repo: string | undefined) {
  const git = yield* Git;
  const found = yield* Effect.promise(() => reachable(dir));
  if ("problem" in found) return yield* Effect.fail(new ReportWriteFailed({ dir, detail: found.problem }));
  if (repo === undefined) return;
  const repoReal = yield* Effect.promise(() => realpath(repo).catch(() => repo));
  const fromRepo = relative(repoReal, found.real);
  if (fromRepo === ".." || fromRepo.startsWith(`..${sep}`) || isAbsolute(fromRepo)) return;
  if (yield* git.isIgnored(repoReal, join(found.real, "report.md"))) return;
  return yield* Effect.fail(new OutInsideRepo({ out: typed, repo, suggestion: join(dirname(repo), `${basename(repo)}-reports`) }));
});

/**
 * --out, when given, checked first of all: even a proof that stops at once writes its report
 * there, so it must not land in the repository under test.
 */
export const validateOut = Effect.fn("Proof.validateOut")(function* (
  options: Pick<ScenarioOptions, "repo"> & { readonly out: string | undefined },
  cwd: string,
) {
  if (options.out === undefined) return;
  const repo = yield* repositoryUnderTest(options, cwd).pipe(Effect.orElseSucceed(() => undefined));
  yield* validateOutFolder(options.out, resolve(cwd, options.out), repo);
});
