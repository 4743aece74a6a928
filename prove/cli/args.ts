import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors.ts";
import { defaultThreshold } from "../report/diff-defaults.ts";

/** What every command that runs a scenario needs. Paths are as typed, resolved against cwd later. */
export interface ScenarioOptions {
  readonly scenario: string;
  readonly repo: string | undefined;
  /** As typed; undefined to look for scenarios.config.ts, then playwright.config.ts. */
  readonly config: string | undefined;
  readonly grep: string | undefined;
  readonly keep: boolean;
  /** --expect-timeout: the runs' expect timeout in ms, over the config's proof.expectTimeout. */
  readonly expectTimeout: number | undefined;
}

/** Where and how a report is published: to a branch of a remote, with pr.md beside it. */
export interface PublishTarget {
  readonly remote: string;
  readonly branch: string;
  /** The URL the branch's files are served under, for a remote that is not on GitHub. */
  readonly imageUrl: string | undefined;
}

/** `--shard i/n`: the i-th (from 1) of n slices of the scenario list. */
export interface Shard {
  readonly index: number;
  readonly total: number;
}

export interface ProveOptions extends ScenarioOptions {
  readonly base: string;
  readonly head: string;
  /** Every scenario file or folder named, as typed; `scenario` is the first. */
  readonly scenarios: ReadonlyArray<string>;
  readonly shard: Shard | undefined;
  readonly repeat: number;
  readonly out: string | undefined;
  readonly json: boolean;
  readonly sequential: boolean;
  /** Publish when the proof has its report; undefined without --publish. */
  readonly publish: PublishTarget | undefined;
}

export interface PublishOptions extends PublishTarget {
  readonly dir: string;
}

export interface MergeOptions {
  readonly dirs: ReadonlyArray<string>;
  readonly out: string | undefined;
  readonly json: boolean;
  /** Publish the merged folder; undefined without --publish. */
  readonly publish: PublishTarget | undefined;
}

export interface RunOptions extends ScenarioOptions {
  readonly at: string;
}

/** `bisect`: the two ends as typed, and how each commit is run and reported. */
export interface BisectOptions extends ScenarioOptions {
  readonly old: string;
  readonly new: string;
  /** Runs per commit: an outcome counts only when every run agrees. */
  readonly repeat: number;
  readonly out: string | undefined;
  readonly json: boolean;
  /** Publish bisect.md's images once written; undefined without --publish. */
  readonly publish: PublishTarget | undefined;
}

/** `compare`: both sides' screenshots of one scenario, label by label, with a difference image each. */
export interface CompareOptions extends ScenarioOptions {
  readonly base: string;
  readonly head: string;
  readonly out: string | undefined;
  readonly json: boolean;
  readonly sequential: boolean;
  /** --threshold: the share of changed pixels at or below which a label is unchanged; undefined for the default. */
  readonly threshold: number | undefined;
  /** Publish compare.md's images once written; undefined without --publish. */
  readonly publish: PublishTarget | undefined;
}

/** The options a proof's output takes, the same for `demo`. */
export type OutputOptions = Pick<ProveOptions, "repeat" | "out" | "json" | "sequential" | "keep" | "publish" | "expectTimeout">;

export interface DemoOptions extends OutputOptions {
  /** A zoo bug's id, "all", or undefined for the default bug. */
  readonly bugId: string | undefined;
  /** Report folder (for "all": one folder per bug inside it); default as for any proof. */
  readonly out: string | undefined;
}

export type Command =
  | { readonly kind: "help" }
  | { readonly kind: "init" }
  | { readonly kind: "prove"; readonly options: ProveOptions }
  | { readonly kind: "run"; readonly options: RunOptions }
  | { readonly kind: "compare"; readonly options: CompareOptions }
  | { readonly kind: "bisect"; readonly options: BisectOptions }
  | { readonly kind: "publish"; readonly options: PublishOptions }
  | { readonly kind: "merge"; readonly options: MergeOptions }
  | { readonly kind: "demo"; readonly options: DemoOptions };

export const usage = `prove-scenario --base <ref> --head <ref> <scenario-file-or-folder>... [options]
  --repo <dir>      repository whose commits are compared (default: the one holding cwd)
  --config <file>   scenario config (default: scenarios.config.ts, else playwright.config.ts,
                    in cwd, else at the checkout's root)
  --grep <text>     pick one test when the file holds several (with several files or a folder:
                    only the tests whose title contains it)
  --repeat <n>      run each side n times; proved only if base fails every time and head passes every time
  --expect-timeout <ms>  the runs' expect timeout (default: the config's proof.expectTimeout, else its
                    expect.timeout): base usually fails by waiting one out, so a shorter one is faster
  --out <dir>       report folder, outside the repository under test or in a folder git ignores there
                    (default: reports/<scenario path>/<base7>-<head7>; for several scenarios
                    reports/<base7>-<head7>, holding summary.md and a folder per scenario)
  --shard <i>/<n>   prove only the i-th of n slices of the scenarios (one per CI job; see merge)
  --json            print report.json (summary.json for several scenarios) to stdout
  --sequential      run base, then head (default: both at once)
  --keep            keep worktrees and homes for inspection
  --publish         then publish the images and write pr.md, as \`publish\` does; takes its options
prove-scenario publish <report-dir> [--remote <name>] [--branch <name>] [--image-url <url>]
                    push the report's images to a branch of the remote (default origin, scenario-proofs)
                    and write pr.md beside the report with every image by absolute URL; takes a
                    proof's folder, a multi-scenario proof's, a comparison's or a bisection's;
                    --image-url <url> is needed when the remote is not on GitHub
prove-scenario merge <dir>... [--out <dir>] [--json] [--publish ...]
                    one summary from the folders of a proof's shards (default out: reports/<base7>-<head7>),
                    then with --publish published as \`publish\` does
prove-scenario init                              write scenarios.config.ts and scenarios/example.e2e.ts for the app in cwd
prove-scenario run --at <ref> <scenario-file>    one side: 0 pass, 1 fail, 125 could not run (git bisect run)
prove-scenario bisect --old <ref> --new <ref> <scenario-file> [options]
                    the first commit after --old whose outcome differs from --old's (the one that
                    introduced or fixed the bug), in temporary worktrees; commits that cannot run are
                    skipped. Takes --repo, --config, --grep, --repeat (per commit), --expect-timeout,
                    --out (default: reports/<scenario path>/bisect-<old7>-<new7>), --json, --keep,
                    --publish (as \`publish\` does, once bisect.md is written).
                    Exit 0 one commit found; 1 both ends have the same outcome; 2 could not run, or
                    skipped commits left a range of candidates
prove-scenario compare --base <ref> --head <ref> <scenario-file> [--threshold <share>] [options]
                    for a visual change: both sides' screenshot of each label and a difference image
                    (changed pixels in magenta), each label changed or unchanged; --threshold is the
                    share of changed pixels at or below which a label is unchanged (default ${defaultThreshold},
                    one pixel in a thousand). Takes --repo, --config, --grep, --expect-timeout, --out
                    (default: reports/<scenario path>/<base7>-<head7>-compare), --json (compare.json),
                    --sequential, --keep, --publish (as \`publish\` does, once compare.md is written).
                    Exit 0 when it ran, whatever changed; 2 when it could not run
prove-scenario demo [<bug-id>|all] [options]     prove a seeded fix of the bundled app (in a clone of scenario-prover);
                                                 takes --out, --json, --repeat, --sequential, --keep, --publish,
                                                 --expect-timeout

The config's app: root, install, build, start, ready, cli, homeEnv, provider, env, passEnv;
see docs/config.md (in an installed package: node_modules/scenario-prover/docs/config.md).
Exit codes: 0 proved (fails on base, passes on head); 1 ran but did not prove the fix; 2 could not run.
With several scenarios: 0 only when every one is proved; 2 when any could not run, else 1 when any was not proved.`;

const scenarioFlags = {
  "expect-timeout": { type: "string" },
  repo: { type: "string" },
  config: { type: "string" },
  grep: { type: "string" },
  keep: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const publishFlags = {
  remote: { type: "string" },
  branch: { type: "string" },
  "image-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Every command that writes a report folder: where, its JSON on stdout, and publishing it. */
const reportFlags = {
  ...publishFlags,
  out: { type: "string" },
  json: { type: "boolean" },
  publish: { type: "boolean" },
} as const;

const outputFlags = {
  ...reportFlags,
  repeat: { type: "string" },
  sequential: { type: "boolean" },
  keep: { type: "boolean" },
  "expect-timeout": { type: "string" },
} as const;

const proveFlags = {
  ...scenarioFlags,
  ...outputFlags,
  base: { type: "string" },
  head: { type: "string" },
  shard: { type: "string" },
} as const;

const mergeFlags = reportFlags;

const runFlags = { ...scenarioFlags, at: { type: "string" } } as const;

const compareFlags = {
  ...scenarioFlags,
  ...reportFlags,
  base: { type: "string" },
  head: { type: "string" },
  sequential: { type: "boolean" },
  threshold: { type: "string" },
} as const;

const bisectFlags = {
  ...scenarioFlags,
  ...reportFlags,
  old: { type: "string" },
  new: { type: "string" },
  repeat: { type: "string" },
} as const;

function parse<const Flags extends NonNullable<ParseArgsConfig["options"]>>(args: ReadonlyArray<string>, options: Flags) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError({ detail: error instanceof Error ? error.message : String(error) });
  }
  refuseRepeated(parsed.tokens);
  return parsed;
}

/** An option with a value given twice would silently keep the last one (a proof of other refs than meant): refuse it, naming both values. */
function refuseRepeated(
  tokens: ReadonlyArray<{ readonly kind: string; readonly name?: string; readonly value?: string | undefined }>,
): void {
  const values = new Map<string, string[]>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined || token.value === undefined) continue;
    values.set(token.name, [...(values.get(token.name) ?? []), token.value]);
  }
  const repeated = [...values].filter(([, given]) => given.length > 1);
  if (repeated.length === 0) return;
  const shown = repeated.map(
    ([name, given]) =>
      `--${name} ${given.length === 2 ? "twice" : `${given.length} times`} (${given.map((value) => JSON.stringify(value)).join(", ")})`,
  );
  throw new UsageError({ detail: `Give each option once; got ${shown.join(" and ")}.` });
}

/** The commands; a first word that is none of them, and no file or folder either, is a mistyped command rather than a scenario. */
const commands = ["init", "run", "publish", "merge", "demo", "bisect", "compare"] as const;

function refuseUnknownCommand(first: string | undefined, exists: (typed: string) => boolean): void {
  if (first === undefined || !/^[A-Za-z][\w-]*$/.test(first) || exists(first)) return;
  throw new UsageError({
    detail:
      `Unknown command ${JSON.stringify(first)}, and there is no scenario file or folder of that name. ` +
      `The commands are ${commands.join(", ")}; a proof names no command: prove-scenario --base <ref> --head <ref> <scenario-file>.`,
  });
}

function required(value: string | undefined, flag: string, example: string): string {
  if (value === undefined || value === "") throw new UsageError({ detail: `${flag} is required, e.g. ${flag} ${example}.` });
  return value;
}

function oneScenario(positionals: ReadonlyArray<string>, command: "run" | "bisect" = "run"): string {
  const [scenario, ...extra] = positionals;
  if (scenario === undefined) throw new UsageError({ detail: "Name the scenario file, e.g. scenarios/my-bug.e2e.ts." });
  if (extra.length > 0) {
    throw new UsageError({
      detail: `${command} takes one scenario file; also got ${extra.join(" ")}. Use --grep to pick one test of a file.`,
    });
  }
  return scenario;
}

function scenarioList(positionals: ReadonlyArray<string>): readonly [string, ...string[]] {
  const [first, ...rest] = positionals;
  if (first === undefined)
    throw new UsageError({ detail: "Name the scenario file (or files, or a folder of them), e.g. scenarios/my-bug.e2e.ts." });
  return [first, ...rest];
}

function shardOf(value: string | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (match === null || total < 1 || index < 1 || index > total) {
    throw new UsageError({
      detail: `--shard takes <i>/<n>, the i-th of n slices with 1 ≤ i ≤ n, e.g. --shard 1/3; got ${JSON.stringify(value)}.`,
    });
  }
  return { index, total };
}

const nonEmpty = (value: string | undefined, flag: string, example: string) => {
  if (value === "") throw new UsageError({ detail: `${flag} needs a value, e.g. ${flag} ${example}.` });
  return value;
};

function publishTarget(values: { remote?: string; branch?: string; "image-url"?: string }): PublishTarget {
  return {
    remote: nonEmpty(values.remote, "--remote", "origin") ?? "origin",
    branch: nonEmpty(values.branch, "--branch", "scenario-proofs") ?? "scenario-proofs",
    imageUrl: nonEmpty(values["image-url"], "--image-url", "https://git.example.com/team/app/raw/scenario-proofs"),
  };
}

function expectTimeoutOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms < 1)
    throw new UsageError({
      detail: `--expect-timeout takes milliseconds, a whole number of 1 or more, e.g. --expect-timeout 3000; got ${JSON.stringify(value)}.`,
    });
  return ms;
}

/** --threshold: a share of pixels from 0 to 1, as a plain number (0.5 % is 0.005). */
function thresholdOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const share = Number(value);
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) || share > 1) {
    throw new UsageError({
      detail:
        `--threshold takes the share of changed pixels, from 0 to 1, at or below which a label counts as unchanged, ` +
        `e.g. --threshold 0.005 for half a percent (default ${defaultThreshold}); got ${JSON.stringify(value)}.`,
    });
  }
  return share;
}

function repeatCount(value: string | undefined): number {
  if (value === undefined) return 1;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new UsageError({ detail: `--repeat takes a whole number of runs, 1 or more; got ${JSON.stringify(value)}.` });
  return count;
}

interface OutputValues {
  repeat?: string;
  out?: string;
  json?: boolean;
  sequential?: boolean;
  keep?: boolean;
  publish?: boolean;
  remote?: string;
  branch?: string;
  "image-url"?: string;
  "expect-timeout"?: string;
}

/** --publish with where it publishes; --remote, --branch or --image-url without it is refused. */
function publishOption(values: Pick<OutputValues, "publish" | "remote" | "branch" | "image-url">): PublishTarget | undefined {
  const target = publishTarget(values);
  if (values.publish !== true && (values.remote !== undefined || values.branch !== undefined || values["image-url"] !== undefined)) {
    throw new UsageError({ detail: "--remote, --branch and --image-url say where --publish publishes; add --publish, or leave them out." });
  }
  return values.publish === true ? target : undefined;
}

function output(values: OutputValues): OutputOptions {
  const publish = publishOption(values);
  return {
    repeat: repeatCount(values.repeat),
    out: nonEmpty(values.out, "--out", "../reports"),
    json: values.json === true,
    sequential: values.sequential === true,
    keep: values.keep === true,
    publish,
    expectTimeout: expectTimeoutOf(values["expect-timeout"]),
  };
}

/** --repo, --config and --grep: an empty one would quietly mean the current folder, or every test. */
function scenarioPaths(values: { repo?: string; config?: string; grep?: string }): Pick<ScenarioOptions, "repo" | "config" | "grep"> {
  return {
    repo: nonEmpty(values.repo, "--repo", "../my-app"),
    config: nonEmpty(values.config, "--config", "scenarios.config.ts"),
    grep: nonEmpty(values.grep, "--grep", '"shows the total"'),
  };
}

/**
 * Reads the command line (without `node` and the script). Throws UsageError when it does not fit.
 * `exists` says whether a path as typed exists: a first word that names neither a command nor a path is a mistyped command.
 */
export function parseCommand(argv: ReadonlyArray<string>, exists: (typed: string) => boolean = () => true): Command {
  const [first, ...rest] = argv;
  if (first === "init") {
    const { values, positionals } = parse(rest, { help: { type: "boolean", short: "h" } });
    if (values.help === true) return { kind: "help" };
    if (positionals.length > 0)
      throw new UsageError({ detail: `init takes no arguments; got ${positionals.join(" ")}. Run it in the app's folder.` });
    return { kind: "init" };
  }
  if (first === "demo") {
    const { values, positionals } = parse(rest, outputFlags);
    if (values.help === true) return { kind: "help" };
    if (positionals.length > 1) throw new UsageError({ detail: `demo takes one bug id or "all"; got ${positionals.join(" ")}.` });
    return { kind: "demo", options: { bugId: positionals[0], ...output(values) } };
  }
  if (first === "publish") {
    const { values, positionals } = parse(rest, publishFlags);
    if (values.help === true) return { kind: "help" };
    const [dir, ...extra] = positionals;
    if (dir === undefined || extra.length > 0) {
      throw new UsageError({
        detail: `publish takes one report folder (the one holding report.md, summary.md, compare.md or bisect.md), e.g. publish reports/checkout/abc1234-def5678${extra.length > 0 ? `; got ${positionals.join(" ")}` : ""}.`,
      });
    }
    return { kind: "publish", options: { dir, ...publishTarget(values) } };
  }
  if (first === "merge") {
    const { values, positionals } = parse(rest, mergeFlags);
    if (values.help === true) return { kind: "help" };
    if (positionals.length === 0)
      throw new UsageError({ detail: "merge takes the report folders of a proof's shards, e.g. merge shard-1 shard-2 --out reports/all." });
    const out = nonEmpty(values.out, "--out", "reports/all");
    const { publish } = output(values);
    return { kind: "merge", options: { dirs: positionals, out, json: values.json === true, publish } };
  }
  if (first === "run") {
    const { values, positionals } = parse(rest, runFlags);
    if (values.help === true) return { kind: "help" };
    return {
      kind: "run",
      options: {
        at: required(values.at, "--at", "HEAD"),
        scenario: oneScenario(positionals),
        ...scenarioPaths(values),
        keep: values.keep === true,
        expectTimeout: expectTimeoutOf(values["expect-timeout"]),
      },
    };
  }
  if (first === "bisect") {
    const { values, positionals } = parse(rest, bisectFlags);
    if (values.help === true) return { kind: "help" };
    return {
      kind: "bisect",
      options: {
        old: required(values.old, "--old", "v1.4.0"),
        new: required(values.new, "--new", "HEAD"),
        scenario: oneScenario(positionals, "bisect"),
        ...scenarioPaths(values),
        keep: values.keep === true,
        expectTimeout: expectTimeoutOf(values["expect-timeout"]),
        repeat: repeatCount(values.repeat),
        out: nonEmpty(values.out, "--out", "../reports"),
        json: values.json === true,
        publish: publishOption(values),
      },
    };
  }
  if (first === "compare") {
    const { values, positionals } = parse(rest, compareFlags);
    if (values.help === true) return { kind: "help" };
    const [scenario, ...extra] = positionals;
    if (scenario === undefined || extra.length > 0) {
      throw new UsageError({
        detail: `compare takes one scenario file, e.g. scenarios/checkout.e2e.ts${extra.length > 0 ? `; got ${positionals.join(" ")}. Use --grep to pick one test of a file` : ""}.`,
      });
    }
    return {
      kind: "compare",
      options: {
        base: required(values.base, "--base", "main"),
        head: required(values.head, "--head", "HEAD"),
        scenario,
        ...scenarioPaths(values),
        keep: values.keep === true,
        expectTimeout: expectTimeoutOf(values["expect-timeout"]),
        out: nonEmpty(values.out, "--out", "../reports"),
        json: values.json === true,
        sequential: values.sequential === true,
        threshold: thresholdOf(values.threshold),
        publish: publishOption(values),
      },
    };
  }
  // Before the proof's options are read: a mistyped command with its own options (`bisec --old …`) is named as such, not as an unknown option.
  refuseUnknownCommand(first, exists);
  const { values, positionals } = parse(argv, proveFlags);
  if (values.help === true || argv.length === 0) return { kind: "help" };
  const scenarios = scenarioList(positionals);
  return {
    kind: "prove",
    options: {
      base: required(values.base, "--base", "main"),
      head: required(values.head, "--head", "HEAD"),
      scenario: scenarios[0],
      scenarios,
      shard: shardOf(values.shard),
      ...scenarioPaths(values),
      ...output(values),
    },
  };
}
