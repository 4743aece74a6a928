import * as Data from "effect/Data";
import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import { describeStep, findFirstChange, maxSteps, type PassOrFail, type ProbeOutcome, type SearchResult } from "./search.ts";

class ProbeFailed extends Data.TaggedError("ProbeFailed")<{ readonly sha: string }> {}

/** Stand-in SHAs: commit 15 is "1515…15", so its short form reads "1515151". */
const commitsOf = (n: number) => Array.from({ length: n }, (_, index) => String(index).padStart(2, "0").repeat(20));

/** A result without its probes, which the fake's record checks. */
const answer = ({ steps: _steps, ...rest }: SearchResult) => rest;

interface Table {
  readonly n: number;
  /** Index of the first commit with the new outcome. */
  readonly first: number;
  readonly old?: PassOrFail;
  readonly skip?: ReadonlyArray<number>;
}

/**
 * A search over `n` commits whose probe reads an in-memory table: the old outcome before `first`,
 * the new one from it, "skip" at `skip`. The probe dies when asked about old, about the last commit
 * (whose outcome is given) or about a commit twice.
 */
async function search(table: Table): Promise<{ readonly result: SearchResult; readonly probed: ReadonlyArray<string> }> {
  const commits = commitsOf(table.n);
  const oldOutcome = table.old ?? "pass";
  const newOutcome: PassOrFail = oldOutcome === "pass" ? "fail" : "pass";
  const probed: string[] = [];
  const probe = (sha: string, index: number) =>
    Effect.suspend(() => {
      if (commits[index] !== sha) return Effect.die(new Error(`probed ${sha} at index ${index}, which holds ${commits[index]}`));
      if (index === table.n - 1) return Effect.die(new Error(`probed ${sha}, the new commit, whose outcome is given`));
      if (probed.includes(sha)) return Effect.die(new Error(`probed ${sha} twice`));
      probed.push(sha);
      const outcome: ProbeOutcome = table.skip?.includes(index) ? "skip" : index >= table.first ? newOutcome : oldOutcome;
      return Effect.succeed(outcome);
    });
  const result = await Effect.runPromise(findFirstChange({ old: "old", commits, oldOutcome, newOutcome, probe }));
  expect(result.steps.map((step) => step.sha)).toEqual(probed);
  return { result, probed };
}

const sizes = [1, 2, 3, 7, 31, 32];
const directions: ReadonlyArray<PassOrFail> = ["pass", "fail"];

describe("the search for the first commit with the new outcome", () => {
  it.each(sizes.flatMap((n) => directions.map((old) => [n, old] as const)))(
    "finds it at every position of %i commits (old %s), never probing old or new, in at most ⌈log2 n⌉ probes",
    async (n, old) => {
      const commits = commitsOf(n);
      for (let first = 0; first < n; first++) {
        const { result, probed } = await search({ n, first, old });
        expect({ first, result: answer(result) }).toEqual({
          first,
          result: { kind: "found", first: commits[first], lastOld: first === 0 ? "old" : commits[first - 1], skipped: [] },
        });
        expect(probed.length).toBeLessThanOrEqual(maxSteps(n, 0));
      }
    },
  );

  it("steps around a skipped middle commit in at most ⌈log2 n⌉ + 1 probes, and gives a range when it is the first or right before it", async () => {
    const n = 32;
    const middle = 15;
    const commits = commitsOf(n);
    for (let first = 0; first < n; first++) {
      const { result } = await search({ n, first, skip: [middle] });
      const expected =
        first === middle || first === middle + 1
          ? { kind: "range", candidates: [commits[middle], commits[middle + 1]], lastOld: commits[middle - 1] }
          : { kind: "found", first: commits[first], lastOld: first === 0 ? "old" : commits[first - 1] };
      expect({ first, result }).toMatchObject({ first, result: { ...expected, skipped: [commits[middle]] } });
      expect(result.steps.length).toBeLessThanOrEqual(maxSteps(n, 1));
    }
  });

  it("names exactly the skipped commits right before the first, and the first, when they hide which is first", async () => {
    const commits = commitsOf(32);
    const { result } = await search({ n: 32, first: 20, skip: [15, 17, 18, 19] });
    expect(answer(result)).toEqual({
      kind: "range",
      candidates: [commits[17], commits[18], commits[19], commits[20]],
      lastOld: commits[16],
      skipped: [commits[15], commits[17], commits[18], commits[19]],
    });
    expect(result.steps.length).toBeLessThanOrEqual(maxSteps(32, 4));
  });

  it("gives every commit as the range when all but the given new one are skipped", async () => {
    const commits = commitsOf(7);
    const { result, probed } = await search({ n: 7, first: 3, skip: [0, 1, 2, 3, 4, 5] });
    expect(answer(result)).toEqual({ kind: "range", candidates: commits, lastOld: "old", skipped: commits.slice(0, 6) });
    expect(probed).toHaveLength(6);
  });

  it("is right for every set of skipped commits and every first among 7, in at most ⌈log2 n⌉ + skipped probes", async () => {
    const n = 7;
    const commits = commitsOf(n);
    const actual: unknown[] = [];
    const expected: unknown[] = [];
    for (let mask = 0; mask < 2 ** (n - 1); mask++) {
      const skip = commits.slice(0, n - 1).flatMap((_, index) => (((mask >> index) & 1) === 1 ? [index] : []));
      for (let first = 0; first < n; first++) {
        const { result } = await search({ n, first, skip });
        // What the outcomes can tell: the last commit before `first` that ran, and the first from `first` on that ran.
        let lastOld = first - 1;
        while (skip.includes(lastOld)) lastOld--;
        let firstNew = first;
        while (skip.includes(firstNew)) firstNew++;
        const candidates = commits.slice(lastOld + 1, firstNew + 1);
        expected.push({
          skip,
          first,
          kind: candidates.length === 1 ? "found" : "range",
          candidates,
          lastOld: lastOld < 0 ? "old" : commits[lastOld],
          withinBound: true,
        });
        actual.push({
          skip,
          first,
          kind: result.kind,
          candidates: result.kind === "found" ? [result.first] : result.candidates,
          lastOld: result.lastOld,
          withinBound: result.steps.length <= maxSteps(n, result.skipped.length),
        });
      }
    }
    expect(actual).toEqual(expected);
  });

  it("ends with the probe's failure, unchanged, and probes nothing after it", async () => {
    const commits = commitsOf(32);
    const failure = new ProbeFailed({ sha: commits[23] ?? "" });
    const probed: string[] = [];
    const probe = (sha: string, index: number) =>
      Effect.suspend(() => {
        probed.push(sha);
        return index === 23 ? Effect.fail(failure) : Effect.succeed<ProbeOutcome>("pass");
      });
    const error = await Effect.runPromise(
      Effect.flip(findFirstChange({ old: "old", commits, oldOutcome: "pass", newOutcome: "fail", probe })),
    );
    expect(error).toBe(failure);
    expect(probed).toEqual([commits[15], commits[23]]);
  });

  it("reports each probe with the commits and steps left", async () => {
    const commits = commitsOf(32);
    const lines: string[] = [];
    const table = (index: number): ProbeOutcome => (index === 19 ? "skip" : index >= 20 ? "fail" : "pass");
    const result = await Effect.runPromise(
      findFirstChange({
        old: "old",
        commits,
        oldOutcome: "pass",
        newOutcome: "fail",
        probe: (_sha, index) => Effect.succeed(table(index)),
        onStep: (progress) => Effect.sync(() => lines.push(describeStep(progress))),
      }),
    );
    expect(result).toMatchObject({ kind: "range", candidates: [commits[19], commits[20]], lastOld: commits[18] });
    expect(lines).toEqual([
      "step 1: 1515151 pass, 16 commits left, about 4 steps",
      "step 2: 2323232 fail, 8 commits left, about 3 steps",
      "step 3: 1919191 skip, 8 commits left, about 3 steps",
      "step 4: 2020202 fail, 5 commits left, about 2 steps",
      "step 5: 1717171 pass, 3 commits left, about 1 step",
      "step 6: 1818181 pass, 2 commits left, about 0 steps",
    ]);
  });

  it("refuses a search without commits or with equal outcomes", async () => {
    const probe = () => Effect.succeed<ProbeOutcome>("pass");
    const noCommits = await Effect.runPromiseExit(
      findFirstChange({ old: "old", commits: [], oldOutcome: "pass", newOutcome: "fail", probe }),
    );
    const sameOutcomes = await Effect.runPromiseExit(
      findFirstChange({ old: "old", commits: ["a"], oldOutcome: "fail", newOutcome: "fail", probe }),
    );
    expect([noCommits._tag, sameOutcomes._tag]).toEqual(["Failure", "Failure"]);
  });
});
