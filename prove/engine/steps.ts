import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Scope from "effect/Scope";
import type { ProveOptions, ScenarioOptions } from "../options/index.ts";
import { Git, type Commit } from "../git/git.ts";
import { Progress } from "../progress/progress.ts";
import { cleanLeftovers, runDirectory } from "../workspace/run-dir.ts";
import { findWorkplace, loadScenario } from "./scenario.ts";
import { checkOut, makeDecided, runSide, sideContext, type SharedInstall, type SideContext, type SideResult } from "./side.ts";
import type { SideEvidence } from "../report/evidence.ts";
import { listedWithImages } from "../report/sharp.ts";
import type { Run } from "./run.ts";

/** Both refs, resolved in the repository under test; a wrong one is BadRef naming its flag. */
export const resolveRefs = Effect.fn("Proof.refs")(function* (options: Pick<ProveOptions, "base" | "head">, repo: string) {
  const git = yield* Git;
  const progress = yield* Progress;
  const [base, head] = yield* progress.step(
    { step: "refs", detail: `${options.base}..${options.head}` },
    Effect.all([git.resolveCommit(repo, options.base, "--base"), git.resolveCommit(repo, options.head, "--head")]),
  );
  // Two names for one commit are most likely a slip (a branch not moved yet, a fix not committed): say so, and go on.
  if (base.sha === head.sha && options.base !== options.head) {
    yield* progress.line(
      `warning: --base ${options.base} and --head ${options.head} are the same commit, ${base.sha.slice(0, 7)}, so the scenario can only pass or fail on both ` +
        "and the proof cannot prove; check that the fix is committed and that both refs name what you meant.",
    );
  }
  return [base, head] as const;
});

/**
 * Removes what killed proofs left behind, then makes this run's temporary folder (released with
 * the scope unless `keep`, when it says where it is and how to remove it).
 */
export const runFolder = Effect.fn("Proof.runFolder")(function* (repo: string, keep: boolean) {
  const progress = yield* Progress;
  const leftovers = yield* cleanLeftovers();
  for (const dir of leftovers.removed) yield* progress.line(`removed ${dir}, left by a proof that was killed`);
  for (const { dir, detail } of leftovers.failed)
    yield* progress.line(`could not remove ${dir}, left by a proof that was killed (${detail}); remove it by hand`);
  const runDir = yield* runDirectory(repo, keep);
  if (keep) {
    yield* progress.line(
      `keeping worktrees, homes and Playwright output in ${runDir.path}; remove them with: rm -rf ${runDir.path} && git -C ${repo} worktree prune`,
    );
  }
  return runDir.path;
});

/**
 * Base and head, both at once unless --sequential. When both commits have the same dependency
 * manifests, base installs and head reuses its install. When base could not run any
 * scenario, head stops. Both worktrees are being removed when it returns; the scope's close waits
 * for that.
 */
export const bothSides = Effect.fn("Proof.bothSides")(function* (
  options: Pick<ProveOptions, "base" | "head" | "sequential">,
  base: Commit,
  head: Commit,
  context: SideContext,
  early?: CheckedOut,
) {
  const git = yield* Git;
  const same = yield* git.sameDependencies(context.repo, base.sha, head.sha);
  const shared: SharedInstall | undefined = same ? { by: "base", installed: yield* Deferred.make<string, void>() } : undefined;
  const sides = { ...context, shared, decided: yield* makeDecided, checkedOut: early?.checkedOut };
  // Both sides' worktrees are removed at once: as soon as both sides are done, while the report is written.
  const worktrees = early?.worktrees ?? (yield* worktreeScope);
  const results = yield* Effect.all([runSide("base", options.base, base, sides), runSide("head", options.head, head, sides)], {
    concurrency: options.sequential ? 1 : 2,
  }).pipe(Scope.provide(worktrees));
  const removing = yield* Effect.forkDetach(Scope.close(worktrees, Exit.void));
  // The proof's scope waits for them before it removes its run folder (a finalizer added earlier, so run later).
  yield* Effect.addFinalizer(() => Fiber.join(removing));
  return results;
});

/** Both sides' worktrees checked out before the sides start (see checkOutBoth): the scope they are in, and each one's path or why it has none. */
export interface CheckedOut {
  readonly worktrees: Scope.Closeable;
  readonly checkedOut: NonNullable<SideContext["checkedOut"]>;
}

/** The scope both sides' worktrees are made in: closed at once, removing both together. */
const worktreeScope = Effect.flatMap(Effect.scope, (scope) => Scope.fork(scope, "parallel"));

/**
 * Checks out both sides' worktrees at once, in a scope of their own, while `meanwhile` runs (the
 * listing: a worktree needs only its commit). Each side gets its path or why it has none; a
 * failure of `meanwhile` stops the checkouts, and the pipeline's scope removes what was made.
 */
const checkOutBoth = <A, E, R>(
  where: Pick<SideContext, "repo" | "runDir" | "keep">,
  base: Commit,
  head: Commit,
  meanwhile: Effect.Effect<A, E, R>,
) =>
  Effect.gen(function* () {
    const worktrees = yield* worktreeScope;
    const both = Effect.all([Effect.result(checkOut("base", base, where)), Effect.result(checkOut("head", head, where))], {
      concurrency: 2,
    }).pipe(Scope.provide(worktrees));
    const [value, [baseTree, headTree]] = yield* Effect.all([meanwhile, both], { concurrency: 2 });
    const early: CheckedOut = { worktrees, checkedOut: { base: baseTree, head: headTree } };
    return { value, early };
  });

/** One scenario's evidence from both sides' results: its attempts on each. */
export function sideEvidence(
  base: SideResult,
  head: SideResult,
  scenario: number,
): { readonly base: SideEvidence; readonly head: SideEvidence } {
  const of = (side: SideResult): SideEvidence => ({ ref: side.ref, commit: side.commit, attempts: side.attempts[scenario] ?? [] });
  return { base: of(base), head: of(head) };
}

/** The options both sides' runs of one scenario take: a proof's and a comparison's. */
export type SidesOptions = ScenarioOptions & Pick<ProveOptions, "base" | "head" | "out" | "sequential">;

/**
 * The sequence a proof and a comparison of one scenario share: the workplace, both commits, the
 * run folder, the scenario (both worktrees checked out meanwhile), the report folder's claim, then
 * both sides run `repeat` times; each fact is learned as soon as it is known.
 */
export const oneScenarioSides = Effect.fn("Engine.oneScenario")(function* (run: Run, options: SidesOptions, repeat: number) {
  const { base, head, context, early } = yield* oneScenarioReady(run, options, repeat);
  const [baseSide, headSide] = yield* bothSides(options, base, head, context, early);
  return sideEvidence(baseSide, headSide, 0);
});

/**
 * What `oneScenarioSides` does before the sides run: both commits, the side context, and both
 * worktrees checked out (`early`); a performance proof runs its sides from here its own way.
 */
export const oneScenarioReady = Effect.fn("Engine.oneScenarioReady")(function* (run: Run, options: SidesOptions, repeat: number) {
  const place = yield* findWorkplace(options, run.cwd);
  yield* run.learn({ place });
  const [base, head] = yield* resolveRefs(options, place.repo);
  yield* run.learn({ base, head });
  const runDir = yield* runFolder(place.repo, options.keep);
  yield* run.learn({ runDir });
  // Nothing waits that need not: the worktrees are checked out and sharp loaded while Playwright lists the scenario.
  const listing = listedWithImages(Effect.tap(loadScenario(options, place), (scenario) => run.learn({ scenario })));
  const listed = yield* checkOutBoth({ repo: place.repo, runDir, keep: options.keep }, base, head, listing);
  const scenario = listed.value;
  yield* run.claim;
  const context = sideContext({ place, scenarios: [scenario], runDir, cwd: run.cwd, keep: options.keep, repeat });
  return { base, head, context, early: listed.early };
});
