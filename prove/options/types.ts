// The options each command reads, after parsing: what the engine and the commands take.

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
  /** --faster: the metric as typed (`task`, `reply:script`); a performance proof. */
  readonly faster: string | undefined;
  /** --not-slower: the metric as typed; a performance guard. */
  readonly notSlower: string | undefined;
  /** --margin, in percent; undefined for the default. */
  readonly margin: number | undefined;
  /** --max-samples, per side; undefined for the default. */
  readonly maxSamples: number | undefined;
  /** --cpu-slowdown: the renderer's slowdown factor while a block is measured. */
  readonly cpuSlowdown: number | undefined;
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
