// Every option of prove-scenario, declared once: its flag, value, help, parsing and reproduce form.
import { UsageError } from "../errors.ts";
import { defaultThreshold } from "../report/diff-defaults.ts";
import { booleanOption, listed, readOption, stringOption, type Given } from "./declaration.ts";
import type { PublishTarget } from "./types.ts";
import {
  cpuSlowdownOf,
  expectTimeoutOf,
  marginOf,
  maxSamplesOf,
  metricOf,
  nonEmpty,
  repeatCount,
  required,
  shardOf,
  thresholdOf,
} from "./values.ts";

/** A required ref, refused when missing or empty. */
const ref = (value: string | undefined, self: { readonly flag: string; readonly example: string }) =>
  required(value, `--${self.flag}`, self.example);

/** An optional value, refused when empty. */
const text = (value: string | undefined, self: { readonly flag: string; readonly example: string }) =>
  nonEmpty(value, `--${self.flag}`, self.example);

/** The reproduce form of a value repeated as given. */
const same = (value: string) => value;

/** A boolean option's value: whether it was given. */
const on = (value: boolean) => value;

export const help = booleanOption({ flag: "help", short: "h", key: "help", type: "boolean", help: "print this help", read: on });

export const base = stringOption({
  flag: "base",
  key: "base",
  type: "string",
  placeholder: "<ref>",
  example: "main",
  required: true,
  help: "the commit with the bug: the scenario must fail there",
  read: ref,
  reproduce: same,
});

export const head = stringOption({
  flag: "head",
  key: "head",
  type: "string",
  placeholder: "<ref>",
  example: "HEAD",
  required: true,
  help: "the commit with the fix: the scenario must pass there",
  read: ref,
  reproduce: same,
});

export const at = stringOption({
  flag: "at",
  key: "at",
  type: "string",
  placeholder: "<ref>",
  example: "HEAD",
  required: true,
  help: "the commit to run the scenario at",
  read: ref,
  reproduce: same,
});

export const oldEnd = stringOption({
  flag: "old",
  key: "old",
  type: "string",
  placeholder: "<ref>",
  example: "v1.4.0",
  required: true,
  help: "the commit the search starts from; its outcome is the old one",
  read: ref,
  reproduce: same,
});

export const newEnd = stringOption({
  flag: "new",
  key: "new",
  type: "string",
  placeholder: "<ref>",
  example: "HEAD",
  required: true,
  help: "a later commit whose outcome differs from --old's",
  read: ref,
  reproduce: same,
});

export const repo = stringOption({
  flag: "repo",
  key: "repo",
  type: "string",
  placeholder: "<dir>",
  example: "../my-app",
  help: "repository whose commits are compared",
  default: "the one holding cwd",
  read: text,
  reproduce: same,
});

export const config = stringOption({
  flag: "config",
  key: "config",
  type: "string",
  placeholder: "<file>",
  example: "scenarios.config.ts",
  help: "scenario config",
  default: "scenarios.config.ts, else playwright.config.ts, in cwd, else at the checkout's root",
  read: text,
  reproduce: same,
});

export const grep = stringOption({
  flag: "grep",
  key: "grep",
  type: "string",
  placeholder: "<text>",
  example: '"shows the total"',
  help: "pick one test when the file holds several (with several files or a folder: only the tests whose title contains it)",
  read: text,
  reproduce: same,
});

export const repeat = stringOption({
  flag: "repeat",
  key: "repeat",
  type: "string",
  placeholder: "<n>",
  example: "3",
  help: "run each side n times; proved only if base fails every time and head passes every time",
  default: "1",
  read: repeatCount,
  reproduce: (count) => (count > 1 ? String(count) : undefined),
});

export const expectTimeout = stringOption({
  flag: "expect-timeout",
  key: "expectTimeout",
  type: "string",
  placeholder: "<ms>",
  example: "3000",
  help: "the runs' expect timeout: base usually fails by waiting one out, so a shorter one is faster",
  default: "the config's proof.expectTimeout, else its expect.timeout",
  read: expectTimeoutOf,
  reproduce: (ms) => String(ms),
});

export const faster = stringOption({
  flag: "faster",
  key: "faster",
  type: "string",
  placeholder: "<metric>",
  example: "task",
  help:
    "a performance proof: head is faster than base by more than --margin in this metric of the scenario's app.measure blocks " +
    "(summed over them; <label>:<metric> for one block), sampled in turns until the interval of head ÷ base decides (docs/performance-proofs.md)",
  read: (value, self): string | undefined => metricOf(value, `--${self.flag}`),
  reproduce: same,
});

export const notSlower = stringOption({
  flag: "not-slower",
  key: "notSlower",
  type: "string",
  placeholder: "<metric>",
  example: "task",
  help: "a performance guard: head is not slower than base by more than --margin in this metric, as --faster samples it",
  read: (value, self): string | undefined => metricOf(value, `--${self.flag}`),
  reproduce: same,
});

export const margin = stringOption({
  flag: "margin",
  key: "margin",
  type: "string",
  placeholder: "<percent>",
  example: "10",
  help: "with --faster, how much faster head must be; with --not-slower, how much slower it may be",
  default: "10",
  read: marginOf,
  reproduce: (percent) => String(percent),
});

export const maxSamples = stringOption({
  flag: "max-samples",
  key: "maxSamples",
  type: "string",
  placeholder: "<n>",
  example: "30",
  help: "with --faster or --not-slower, the most samples per side before the proof ends undecided",
  default: "30",
  read: maxSamplesOf,
  reproduce: (count) => String(count),
});

export const cpuSlowdown = stringOption({
  flag: "cpu-slowdown",
  key: "cpuSlowdown",
  type: "string",
  placeholder: "<n>",
  example: "4",
  help: "with --faster or --not-slower, run the renderer n times slower while a block is measured, to magnify a difference",
  read: cpuSlowdownOf,
  reproduce: (factor) => String(factor),
});

export const out = stringOption({
  flag: "out",
  key: "out",
  type: "string",
  placeholder: "<dir>",
  example: "../reports",
  help: "report folder, outside the repository under test or in a folder git ignores there",
  default:
    "reports/<scenario path>/<base7>-<head7>; for several scenarios reports/<base7>-<head7>, holding summary.md and a folder per scenario",
  read: text,
});

export const shard = stringOption({
  flag: "shard",
  key: "shard",
  type: "string",
  placeholder: "<i>/<n>",
  example: "1/3",
  help: "prove only the i-th of n slices of the scenarios (one per CI job; see merge)",
  read: shardOf,
});

export const json = booleanOption({
  flag: "json",
  key: "json",
  type: "boolean",
  help: "print report.json (summary.json for several scenarios) to stdout",
  read: on,
});

export const sequential = booleanOption({
  flag: "sequential",
  key: "sequential",
  type: "boolean",
  help: "run base, then head",
  default: "both at once",
  read: on,
});

export const keep = booleanOption({
  flag: "keep",
  key: "keep",
  type: "boolean",
  help: "keep worktrees and homes for inspection",
  read: on,
});

export const threshold = stringOption({
  flag: "threshold",
  key: "threshold",
  type: "string",
  placeholder: "<share>",
  example: "0.005",
  help: "the share of changed pixels at or below which a label is unchanged",
  default: `${defaultThreshold}, one pixel in a thousand`,
  read: thresholdOf,
});

export const remote = stringOption({
  flag: "remote",
  key: "remote",
  type: "string",
  placeholder: "<name>",
  example: "origin",
  help: "the remote whose branch gets the images",
  default: "origin",
  read: (value, self): string => text(value, self) ?? "origin",
});

export const branch = stringOption({
  flag: "branch",
  key: "branch",
  type: "string",
  placeholder: "<name>",
  example: "scenario-proofs",
  help: "the branch the images are pushed to",
  default: "scenario-proofs",
  read: (value, self): string => text(value, self) ?? "scenario-proofs",
});

export const imageUrl = stringOption({
  flag: "image-url",
  key: "imageUrl",
  type: "string",
  placeholder: "<url>",
  example: "https://git.example.com/team/app/raw/scenario-proofs",
  help: "the URL the branch's files are served under; needed when the remote is not on GitHub",
  default: "https://github.com/<owner>/<repo>/raw/<branch> for a GitHub remote",
  read: text,
});

/** Where a report is published: --remote, --branch and --image-url, each with its default. */
const publishTarget = (given: Given): PublishTarget => ({
  remote: readOption(remote, given),
  branch: readOption(branch, given),
  imageUrl: readOption(imageUrl, given),
});

const publishWith = [remote, branch, imageUrl];

export const publish = booleanOption({
  flag: "publish",
  key: "publish",
  type: "boolean",
  help: "then publish the images and write pr.md, as `publish` does",
  with: publishWith,
  // The target is read first, so an empty --branch is named as such, with or without --publish.
  read: (wanted, _self, given): PublishTarget | undefined => {
    const target = publishTarget(given);
    if (!wanted && publishWith.some((option) => given[option.flag] !== undefined)) {
      const flags = listed(publishWith.map((option) => `--${option.flag}`));
      throw new UsageError({ detail: `${flags} say where --publish publishes; add --publish, or leave them out.` });
    }
    return wanted ? target : undefined;
  },
});
