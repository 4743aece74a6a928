// The command line's options: how a command line is read, --help, and the options each command takes.
export { parseCommand } from "./parse.ts";
export { usage } from "./help.ts";
export type {
  BisectOptions,
  Command,
  CompareOptions,
  DemoOptions,
  MergeOptions,
  OutputOptions,
  ProveOptions,
  PublishOptions,
  PublishTarget,
  RunOptions,
  ScenarioOptions,
  Shard,
} from "./types.ts";
