import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Progress } from "../progress/progress.ts";
import { ownerToken, startTime } from "../../common/ownership.ts";
import { progressLayer } from "../progress/progress-live.ts";
import { claimFile, claimReportFolder } from "./report-claim.ts";

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "report-claim-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const lines: string[] = [];

/** Runs `effect` as a proof would, its claims held until it ends, with progress lines kept in `lines`. */
const run = <A, E>(effect: Effect.Effect<A, E, Progress | Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(effect).pipe(Effect.provide(progressLayer((line) => lines.push(line)))));

describe("a report folder", () => {
  it("held by a proof running now: the default folder moves to -2, then -3, saying so, and --out stops naming it", async () => {
    const dir = join(work, "reports", "sum", "1a2b3c4-5d6e7f8");
    lines.length = 0;
    // One process holds them all: its own claims count as another live proof's.
    const claimed = await run(
      Effect.gen(function* () {
        const folders = [
          yield* claimReportFolder(dir, undefined),
          yield* claimReportFolder(dir, undefined),
          yield* claimReportFolder(dir, undefined),
        ];
        const refused = yield* Effect.flip(claimReportFolder(dir, "reports/sum/1a2b3c4-5d6e7f8"));
        return { folders, refused: refused.message };
      }),
    );

    expect(claimed.folders).toEqual([dir, `${dir}-2`, `${dir}-3`]);
    expect(lines).toEqual([
      `${dir} is being written by another proof running now (pid ${process.pid}), so this one writes its report to ${dir}-2`,
      `${dir} is being written by another proof running now (pid ${process.pid}), so this one writes its report to ${dir}-3`,
    ]);
    expect(claimed.refused).toBe(
      `--out reports/sum/1a2b3c4-5d6e7f8 is being written by another proof running now (pid ${process.pid}). Pass another --out, or run this proof again once that one has ended.`,
    );
    // Released with nothing written into them, the folders are gone again.
    expect([existsSync(dir), existsSync(`${dir}-2`), existsSync(`${dir}-3`)]).toEqual([false, false, false]);
  });

  it("claimed by a proof that died is taken over, and a report already in it stays until it is written over, which progress says", async () => {
    const dir = join(work, "reports", "left");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "report.md"), "an earlier proof's report\n");
    const exited = execa("true");
    await exited;
    await writeFile(join(dir, claimFile), String(exited.pid));

    lines.length = 0;
    const held = await run(
      Effect.gen(function* () {
        const claimed = yield* claimReportFolder(dir, "reports/left");
        return { claimed, files: yield* Effect.promise(() => readdir(dir)) };
      }),
    );
    expect(held.claimed).toBe(dir);
    expect(held.files.sort()).toEqual([claimFile, "report.md"]);
    expect(lines).toEqual([`${dir} holds an earlier run's report.md, which this one replaces`]);
    expect(await readdir(dir)).toEqual(["report.md"]);
  });

  it("claimed by a proof that died, whose pid a later process now has, is taken over; this proof's claim names it by pid and start time", async () => {
    const dir = join(work, "reports", "reused");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, claimFile), `${String(process.ppid)}.${String(Number(startTime(process.ppid)) - 1)}`);

    const held = await run(
      Effect.gen(function* () {
        const claimed = yield* claimReportFolder(dir, "reports/reused");
        return { claimed, owner: yield* Effect.promise(() => readFile(join(dir, claimFile), "utf8")) };
      }),
    );
    expect(held).toEqual({ claimed: dir, owner: ownerToken() });
  });
});
