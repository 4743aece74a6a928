// Every command of prove-scenario: what it does, its arguments, the options it takes, and its exit codes.
import { defineCommand, describedAs, type CommandSpec } from "./declaration.ts";
import { UsageError } from "../errors.ts";
import {
  at,
  base,
  branch,
  config,
  cpuSlowdown,
  expectTimeout,
  faster,
  grep,
  head,
  imageUrl,
  json,
  keep,
  margin,
  maxSamples,
  newEnd,
  notSlower,
  oldEnd,
  out,
  publish,
  remote,
  repeat,
  repo,
  sequential,
  shard,
  threshold,
} from "./declarations.ts";
import type { ProveOptions } from "./types.ts";
import { bugId, compareScenario, noArguments, oneScenario, reportDir, scenarioList, shardDirs } from "./positionals.ts";

/** --grep for a command of one scenario file. */
const grepOne = describedAs(grep, { help: "pick one test when the file holds several" });

/**
 * A performance proof's flags together: one of --faster and --not-slower, of one scenario, each side
 * sampled as often as the statistics need (so never --repeat, --shard or several scenarios), and
 * --margin, --max-samples and --cpu-slowdown only with one of them.
 */
function refusePerfMismatch(options: ProveOptions): void {
  const perf = options.faster === undefined ? (options.notSlower === undefined ? undefined : "--not-slower") : "--faster";
  if (options.faster !== undefined && options.notSlower !== undefined) {
    throw new UsageError({
      detail:
        "--faster and --not-slower ask different questions of one proof; give one: --faster to prove a speed-up, --not-slower to guard against a slowdown.",
    });
  }
  if (perf === undefined) {
    const alone = [
      ["--margin", options.margin],
      ["--max-samples", options.maxSamples],
      ["--cpu-slowdown", options.cpuSlowdown],
    ].flatMap(([flag, value]) => (value === undefined ? [] : [String(flag)]));
    if (alone.length > 0) {
      throw new UsageError({
        detail: `${alone.join(" and ")} ${alone.length > 1 ? "say" : "says"} how a performance proof samples; add --faster <metric> or --not-slower <metric>, or leave ${alone.length > 1 ? "them" : "it"} out.`,
      });
    }
    return;
  }
  if (options.repeat > 1) {
    throw new UsageError({ detail: `${perf} samples each side until its interval decides (at most --max-samples); leave --repeat out.` });
  }
  if (options.shard !== undefined || options.scenarios.length > 1) {
    throw new UsageError({ detail: `${perf} proves one scenario; name one scenario file (and --grep for one test), without --shard.` });
  }
}

const prove = defineCommand({
  name: "prove",
  does: "Prove a fix: the scenario fails on base and passes on head; with --faster, that head is faster (docs/performance-proofs.md).",
  positionals: scenarioList,
  options: [
    base,
    head,
    repo,
    config,
    grep,
    repeat,
    expectTimeout,
    faster,
    notSlower,
    margin,
    maxSamples,
    cpuSlowdown,
    out,
    shard,
    json,
    sequential,
    keep,
    publish,
  ],
  exitCodes:
    "0 proved (fails on base, passes on head); 1 ran but did not prove the fix; 2 could not run. " +
    "With several scenarios: 0 only when every one is proved; 2 when any could not run, else 1 when any was not proved. " +
    "With --faster: 0 proved faster; 1 no clear difference, slower, or a run that failed; 2 could not run. " +
    "With --not-slower: 0 not slower; 1 slower, undecided at --max-samples, or a run that failed; 2 could not run.",
  build: (options) => {
    refusePerfMismatch(options);
    return { kind: "prove", options };
  },
});

const init = defineCommand({
  name: "init",
  does: "Write scenarios.config.ts and scenarios/example.e2e.ts for the app in cwd, having tried the install and the start it writes.",
  positionals: noArguments,
  options: [],
  exitCodes:
    "0 written, the install and the start having worked; " +
    "1 written, but the install or the start failed when init tried it (it prints the output and the fix); " +
    "2 when it could not write them, saying why.",
  build: () => ({ kind: "init" }),
});

const run = defineCommand({
  name: "run",
  does: "Run the scenario on one side, at one commit, for `git bisect run`.",
  positionals: oneScenario("run"),
  options: [at, repo, config, grepOne, keep, expectTimeout],
  exitCodes: "0 pass, 1 fail, 125 could not run (git bisect run skips the commit).",
  build: (options) => ({ kind: "run", options }),
});

const publishCommand = defineCommand({
  name: "publish",
  does: "Push the report's images to a branch of the remote and write pr.md beside the report with every image by absolute URL.",
  positionals: reportDir,
  options: [remote, branch, imageUrl],
  shown: [remote, branch, imageUrl],
  exitCodes: "0 published; 2 when it could not publish.",
  build: (options) => ({ kind: "publish", options }),
});

const merge = defineCommand({
  name: "merge",
  does: "One summary from the folders of a proof's shards, then with --publish published as `publish` does.",
  positionals: shardDirs,
  options: [
    describedAs(out, { help: "folder of the merged summary", default: "reports/<base7>-<head7>", example: "reports/all" }),
    describedAs(json, { help: "print summary.json to stdout" }),
    describedAs(publish, { help: "then publish the merged folder, as `publish` does" }),
  ],
  shown: [out, json, publish],
  exitCodes: "as for a proof of all the shards' scenarios; 2 when the folders cannot be merged.",
  build: (options) => ({ kind: "merge", options }),
});

const demo = defineCommand({
  name: "demo",
  does: "Prove a seeded fix of the bundled app (in a clone of scenario-prover), as any proof.",
  positionals: bugId,
  options: [
    repeat,
    expectTimeout,
    describedAs(out, { default: "as for a proof; for all, one folder per bug inside it" }),
    describedAs(json, { help: "print report.json to stdout (for all: the array of reports, and the table on stderr)" }),
    sequential,
    keep,
    publish,
  ],
  exitCodes: "as for a proof; for all, 0 only when every fix was proved, else the worst exit code.",
  build: (options) => ({ kind: "demo", options }),
});

const bisect = defineCommand({
  name: "bisect",
  does:
    "The first commit after --old whose outcome differs from --old's (the one that introduced or fixed the bug), " +
    "in temporary worktrees; commits that cannot run are skipped.",
  positionals: oneScenario("bisect"),
  options: [
    oldEnd,
    newEnd,
    repo,
    config,
    grepOne,
    describedAs(repeat, { help: "run each commit n times; an outcome counts only when every run agrees" }),
    expectTimeout,
    describedAs(out, { default: "reports/<scenario path>/bisect-<old7>-<new7>" }),
    describedAs(json, { help: "print bisect.json to stdout" }),
    keep,
    describedAs(publish, { help: "then publish the images and write pr.md, as `publish` does, once bisect.md is written" }),
  ],
  exitCodes: "0 one commit found; 1 both ends have the same outcome; 2 could not run, or skipped commits left a range of candidates.",
  build: (options) => ({ kind: "bisect", options }),
});

const compare = defineCommand({
  name: "compare",
  does:
    "For a visual change: both sides' screenshot of each label and a difference image (changed pixels in magenta), " +
    "each label changed or unchanged.",
  positionals: compareScenario,
  options: [
    describedAs(base, { help: "the commit before the change" }),
    describedAs(head, { help: "the commit with the change" }),
    repo,
    config,
    grepOne,
    threshold,
    expectTimeout,
    describedAs(out, { default: "reports/<scenario path>/<base7>-<head7>-compare" }),
    describedAs(json, { help: "print compare.json to stdout" }),
    sequential,
    keep,
    describedAs(publish, { help: "then publish the images and write pr.md, as `publish` does, once compare.md is written" }),
  ],
  shown: [threshold],
  exitCodes: "0 when it ran, whatever changed; 2 when it could not run.",
  build: (options) => ({ kind: "compare", options }),
});

/** The commands, a proof first; the others in the order an unknown command's message lists them. */
export const commands = { prove, init, run, publish: publishCommand, merge, demo, bisect, compare } as const;

export const commandList: ReadonlyArray<CommandSpec> = Object.values(commands);
