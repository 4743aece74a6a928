import { existsSync } from "node:fs";
import { cp } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { ProofSummary, SummaryRow } from "./schema.ts";
import { MergeRefused } from "./errors.ts";
import { overall, sortRows } from "./summarize.ts";
import { readSummary, writeSummary } from "./write-summary.ts";

interface Shard {
  readonly dir: string;
  readonly summary: ProofSummary;
}

const pair = (summary: ProofSummary) => `base ${summary.base.sha?.slice(0, 7) ?? "?"}, head ${summary.head.sha?.slice(0, 7) ?? "?"}`;

async function readShards(dirs: ReadonlyArray<string>): Promise<ReadonlyArray<Shard>> {
  const shards: Shard[] = [];
  for (const dir of dirs) {
    const summary = await readSummary(dir);
    if (summary === undefined) {
      throw new MergeRefused({
        detail: `${dir} holds no summary.json of a proof. Pass the folders that proofs with --shard (or of several scenarios) wrote, e.g. reports/<base7>-<head7>-shard-1-of-2.`,
      });
    }
    shards.push({ dir, summary });
  }
  return shards;
}

/** Every folder proves the same two commits, holds every shard of one split once, and no scenario twice. */
function check(shards: ReadonlyArray<Shard>): void {
  const pairs = new Set(shards.map((shard) => `${shard.summary.base.sha}..${shard.summary.head.sha}`));
  if (pairs.size > 1) {
    throw new MergeRefused({
      detail: `the folders prove different commits, so their verdicts do not add up:\n${shards.map((shard) => `  ${shard.dir}: ${pair(shard.summary)}`).join("\n")}\nMerge only the shards of one proof (the same --base and --head).`,
    });
  }
  const split = shards.filter((shard) => shard.summary.shard !== null);
  if (split.length > 0) {
    const totals = new Set(split.map((shard) => shard.summary.shard?.total));
    const total = split[0]?.summary.shard?.total ?? 0;
    if (totals.size > 1 || split.length !== shards.length) {
      throw new MergeRefused({
        detail: `the folders come from different splits (${shards.map((shard) => `${shard.dir}: ${shard.summary.shard === null ? "no shard" : `shard ${shard.summary.shard.index}/${shard.summary.shard.total}`}`).join(", ")}). Merge the shards of one run.`,
      });
    }
    const indexes = split.map((shard) => shard.summary.shard?.index ?? 0);
    const twice = indexes.filter((index, at) => indexes.indexOf(index) !== at);
    const missing = Array.from({ length: total }, (_unused, at) => at + 1).filter((index) => !indexes.includes(index));
    if (twice.length > 0 || missing.length > 0) {
      const said = [
        ...(missing.length > 0 ? [`shard ${missing.map((index) => `${index}/${total}`).join(", ")} missing`] : []),
        ...(twice.length > 0 ? [`shard ${[...new Set(twice)].map((index) => `${index}/${total}`).join(", ")} given twice`] : []),
      ];
      throw new MergeRefused({
        detail: `${said.join("; ")}. Pass the folder of every shard, each once, so the summary covers every scenario.`,
      });
    }
  }
  const seen = new Map<string, string>();
  for (const shard of shards) {
    for (const row of shard.summary.scenarios) {
      const key = `${row.file} › ${row.title ?? ""}`;
      const before = seen.get(key);
      if (before !== undefined)
        throw new MergeRefused({ detail: `${key} is in both ${before} and ${shard.dir}. Merge folders that prove different scenarios.` });
      seen.set(key, shard.dir);
      if (!existsSync(join(shard.dir, row.dir)))
        throw new MergeRefused({
          detail: `${shard.dir} lists ${key} but its report folder ${join(shard.dir, row.dir)} is missing. Pass the whole folder the proof wrote.`,
        });
    }
  }
}

/**
 * `merge`: one summary in `out` from the folders of a proof's shards (or of other scenarios at the same
 * commits), each report folder copied beside it. Throws MergeRefused when they do not make one proof.
 */
export async function mergeSummaries(dirs: ReadonlyArray<string>, out: string): Promise<ProofSummary> {
  const shards = await readShards(dirs.map((dir) => resolve(dir)));
  check(shards);
  const rows: SummaryRow[] = [];
  for (const shard of shards) {
    for (const row of shard.summary.scenarios) {
      if (resolve(shard.dir) !== resolve(out)) await cp(join(shard.dir, row.dir), join(out, row.dir), { recursive: true, force: true });
      rows.push(row);
    }
  }
  const [first] = shards;
  if (first === undefined) throw new MergeRefused({ detail: "no folder given. Pass the report folders of every shard." });
  const sorted = sortRows(rows);
  // A shard that stopped before its scenarios ran (a bad ref, a broken config) has no row to say so.
  const stopped = shards.filter((shard) => shard.summary.verdict !== overall(shard.summary.scenarios).verdict);
  const verdict =
    stopped.length === 0
      ? overall(sorted)
      : {
          ...overall(sorted),
          verdict: "could-not-run" as const,
          exitCode: 2 as const,
          reason: stopped.map((shard) => `${shard.dir}: ${shard.summary.reason}`).join("\n"),
        };
  const summary: ProofSummary = {
    ...first.summary,
    ...verdict,
    shard: null,
    scenarios: sorted,
    timings: { totalMs: Math.max(...shards.map((shard) => shard.summary.timings.totalMs)) },
  };
  await writeSummary(out, summary);
  return summary;
}
