import { existsSync } from "node:fs";
import { mkdir, rmdir } from "node:fs/promises";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Ref from "effect/Ref";
import * as Scope from "effect/Scope";
import { claimLink, releaseLink } from "../../common/ownership.ts";
import { OutBusy, ReportWriteFailed } from "../errors.ts";
import { Progress } from "../progress/progress.ts";

/** The file in a report folder naming the proof that is writing it, by its owner token (pid and start time). */
export const claimFile = ".scenario-prover-writing";

/**
 * Claims `dir` for this process by a link claim on its claimFile (see claimLink). Undefined when
 * claimed, else the pid of the live proof holding it; a claim whose proof died is taken over.
 */
async function claim(dir: string): Promise<number | undefined> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, claimFile);
  const found = await claimLink(file);
  if (found.kind === "stale") throw new Error(`${file} is left by a proof that ended, and could not be removed`);
  return found.kind === "held" ? found.owner.pid : undefined;
}

/** Lets the folder go; a folder the proof made and wrote nothing into goes too. */
async function release(dir: string): Promise<void> {
  await releaseLink(join(dir, claimFile));
  await rmdir(dir).catch(() => {});
}

/**
 * A proof's report (or summary) folder, claimed once into its `facts` and held until `claims`
 * closes, after a stopped proof's report too: the folder it reports into from then on.
 */
export const claimOnce = <F extends { readonly out?: string }>(
  facts: Ref.Ref<F>,
  dirOf: (known: F) => string,
  out: string | undefined,
  claims: Scope.Scope,
) =>
  Effect.gen(function* () {
    const known = yield* Ref.get(facts);
    if (known.out !== undefined) return known;
    const claimed = yield* claimReportFolder(dirOf(known), out).pipe(Scope.provide(claims));
    return yield* Ref.updateAndGet(facts, (now) => ({ ...now, out: claimed }));
  });

/** The files a run writes at the top of its report folder, by which an earlier run's report is known. */
const reportFiles = ["report.md", "summary.md", "compare.md", "bisect.md"];

/** `dir`, then `dir-2`, `dir-3`, …: the folders a proof whose default folder is taken tries in turn. */
const numbered = (dir: string, n: number) => (n === 1 ? dir : `${dir}-${n}`);

/**
 * The report folder, held by this proof until the scope closes, so two proofs at once never write
 * into one folder and mix their files. When another live proof holds the default folder, this
 * one writes the first free of `<dir>-2`, `<dir>-3`, … and says so; when it holds the folder
 * --out names (`out`, as typed), this proof stops with OutBusy rather than overwrite it.
 */
export const claimReportFolder = Effect.fn("Proof.claimReportFolder")(function* (dir: string, out: string | undefined) {
  const progress = yield* Progress;
  let heldBy: number | undefined;
  for (let n = 1; ; n++) {
    const candidate = numbered(dir, n);
    const taken = Effect.tryPromise({
      try: () => claim(candidate),
      catch: (error) => new ReportWriteFailed({ dir: candidate, detail: error instanceof Error ? error.message : String(error) }),
    });
    const owner = yield* Effect.acquireRelease(taken, (owner) =>
      owner === undefined ? Effect.promise(() => release(candidate)) : Effect.void,
    );
    if (owner === undefined) {
      if (heldBy !== undefined)
        yield* progress.line(
          `${dir} is being written by another proof running now (pid ${heldBy}), so this one writes its report to ${candidate}`,
        );
      const earlier = reportFiles.filter((name) => existsSync(join(candidate, name)));
      if (earlier.length > 0) yield* progress.line(`${candidate} holds an earlier run's ${earlier.join(", ")}, which this one replaces`);
      return candidate;
    }
    if (out !== undefined) return yield* Effect.fail(new OutBusy({ out, pid: owner }));
    heldBy ??= owner;
  }
});
