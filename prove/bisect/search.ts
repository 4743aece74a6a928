import * as Effect from "effect/Effect";

/** What the scenario does at a commit. */
export type PassOrFail = "pass" | "fail";

/** A probe's answer; "skip" when the commit could not run, like `git bisect run`'s exit 125. */
export type ProbeOutcome = PassOrFail | "skip";

export interface Step {
  readonly sha: string;
  /** The commit's position in `commits`. */
  readonly index: number;
  readonly outcome: ProbeOutcome;
}

/** One probe as the CLI reports it. */
export interface StepProgress extends Step {
  /** 1 for the first probe. */
  readonly step: number;
  /** How many commits might still be the first with the new outcome, skipped ones included. */
  readonly commitsLeft: number;
  /** About how many probes are left: ⌈log2⌉ of the commits left that are not skipped. */
  readonly stepsLeft: number;
}

export interface SearchInput<E, R, E2, R2> {
  /** The commit whose outcome is `oldOutcome`; never probed. */
  readonly old: string;
  /** The commits after `old`, oldest first, up to and including the one whose outcome is `newOutcome` (last; never probed). */
  readonly commits: ReadonlyArray<string>;
  readonly oldOutcome: PassOrFail;
  /** Differs from `oldOutcome`. */
  readonly newOutcome: PassOrFail;
  readonly probe: (sha: string, index: number) => Effect.Effect<ProbeOutcome, E, R>;
  readonly onStep?: (progress: StepProgress) => Effect.Effect<void, E2, R2>;
}

/** The first commit with the new outcome, right after one with the old outcome. */
export interface Found {
  readonly kind: "found";
  readonly first: string;
  /** The commit before `first`: `old` or a probed one. */
  readonly lastOld: string;
  /** The probes, in the order made. */
  readonly steps: ReadonlyArray<Step>;
  /** The commits probed as "skip", oldest first. */
  readonly skipped: ReadonlyArray<string>;
}

/** Skipped commits hide which one is first: it is one of `candidates`. */
export interface Range {
  readonly kind: "range";
  /** The skipped commits right after `lastOld`, then the first probed (or given) with the new outcome; oldest first. */
  readonly candidates: ReadonlyArray<string>;
  readonly lastOld: string;
  readonly steps: ReadonlyArray<Step>;
  readonly skipped: ReadonlyArray<string>;
}

export type SearchResult = Found | Range;

/** ⌈log2 n⌉ for a count n: the probes a binary search needs to single out one of n commits. */
function ceilLog2(n: number): number {
  let steps = 0;
  while (2 ** steps < n) steps++;
  return steps;
}

/** The most probes a search of `n` commits makes when `skipped` of its probes are skips. */
export function maxSteps(n: number, skipped: number): number {
  return ceilLog2(n) + skipped;
}

/** A probe as one line of progress: "step 3: abc1234 fail, 5 commits left, about 3 steps". */
export function describeStep(progress: StepProgress): string {
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
  return `step ${progress.step}: ${progress.sha.slice(0, 7)} ${progress.outcome}, ${plural(progress.commitsLeft, "commit")} left, about ${plural(progress.stepsLeft, "step")}`;
}

interface At {
  readonly index: number;
  readonly sha: string;
}

/**
 * The commit to probe between `lastOld` and `firstNew` (exclusive): the middle one, or when it was
 * skipped the nearest one not skipped, trying right then left at each distance. Right first, as
 * for an odd number of candidates the commit right of the middle splits them as evenly.
 */
function nextProbe(
  commits: ReadonlyArray<string>,
  lastOld: number,
  firstNew: number,
  skipped: ReadonlyMap<number, string>,
): At | undefined {
  const middle = lastOld + Math.floor((firstNew - lastOld) / 2);
  for (let distance = 0; middle + distance < firstNew || middle - distance > lastOld; distance++) {
    for (const index of distance === 0 ? [middle] : [middle + distance, middle - distance]) {
      const sha = commits[index];
      if (index > lastOld && index < firstNew && !skipped.has(index) && sha !== undefined) return { index, sha };
    }
  }
  return undefined;
}

/**
 * Binary search for the first of `commits` whose outcome is `newOutcome`, every one before it
 * having `oldOutcome` (outcomes are assumed to change once). A skipped commit is never probed
 * again; when skipped commits sit right before the first with the new outcome, the answer is the
 * range of them. A probe's failure ends the search with that failure.
 */
export function findFirstChange<E, R, E2 = never, R2 = never>(
  input: SearchInput<E, R, E2, R2>,
): Effect.Effect<SearchResult, E | E2, R | R2> {
  const { old, commits, oldOutcome, newOutcome, probe, onStep } = input;
  return Effect.gen(function* () {
    const newest = commits.at(-1);
    if (newest === undefined || oldOutcome === newOutcome) {
      return yield* Effect.die(
        new RangeError(
          `findFirstChange needs at least one commit and two different outcomes, got ${commits.length} commits, old ${oldOutcome}, new ${newOutcome}`,
        ),
      );
    }
    // The first commit with the new outcome is after lastOld (index -1 is `old`) and at or before firstNew.
    let lastOld: At = { index: -1, sha: old };
    let firstNew: At = { index: commits.length - 1, sha: newest };
    const skipped = new Map<number, string>();
    const steps: Step[] = [];
    for (
      let next = nextProbe(commits, lastOld.index, firstNew.index, skipped);
      next !== undefined;
      next = nextProbe(commits, lastOld.index, firstNew.index, skipped)
    ) {
      const outcome = yield* probe(next.sha, next.index);
      steps.push({ ...next, outcome });
      if (outcome === "skip") skipped.set(next.index, next.sha);
      else if (outcome === newOutcome) firstNew = next;
      else lastOld = next;
      if (onStep !== undefined) {
        const commitsLeft = firstNew.index - lastOld.index;
        const skippedLeft = [...skipped.keys()].filter((index) => index > lastOld.index && index < firstNew.index).length;
        yield* onStep({ ...next, outcome, step: steps.length, commitsLeft, stepsLeft: ceilLog2(commitsLeft - skippedLeft) });
      }
    }
    const inOrder = [...skipped].sort(([a], [b]) => a - b);
    const skippedShas = inOrder.map(([, sha]) => sha);
    const between = inOrder.filter(([index]) => index > lastOld.index && index < firstNew.index).map(([, sha]) => sha);
    return between.length === 0
      ? { kind: "found", first: firstNew.sha, lastOld: lastOld.sha, steps, skipped: skippedShas }
      : { kind: "range", candidates: [...between, firstNew.sha], lastOld: lastOld.sha, steps, skipped: skippedShas };
  });
}
