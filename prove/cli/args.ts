import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors.ts";

/** What every command that runs a scenario needs. Paths are as typed, resolved against cwd later. */
export interface ScenarioOptions {
  readonly scenario: string;
  readonly repo: string | undefined;
  /** As typed; undefined to look for scenarios.config.ts, then playwright.config.ts. */
  readonly config: string | undefined;
  readonly grep: string | undefined;
  readonly keep: boolean;
}

export interface ProveOptions extends ScenarioOptions {
  readonly base: string;
  readonly head: string;
  readonly repeat: number;
  readonly out: string | undefined;
  readonly json: boolean;
  readonly sequential: boolean;
}

export interface RunOptions extends ScenarioOptions {
  readonly at: string;
}

/** The options a proof's output takes, the same for `demo`. */
export type OutputOptions = Pick<ProveOptions, "repeat" | "out" | "json" | "sequential" | "keep">;

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
  | { readonly kind: "demo"; readonly options: DemoOptions };

export const usage = `prove-scenario --base <ref> --head <ref> <scenario-file> [options]
  --repo <dir>      repository whose commits are compared (default: the one holding cwd)
  --config <file>   scenario config (default: scenarios.config.ts, else playwright.config.ts,
                    in cwd, else at the checkout's root)
  --grep <text>     pick one test when the file holds several
  --repeat <n>      run each side n times; proved only if base fails every time and head passes every time
  --out <dir>       report folder (default: reports/<scenario path>/<base7>-<head7>)
  --json            print report.json to stdout (the human summary goes to stderr)
  --sequential      run base, then head (default: both at once)
  --keep            keep worktrees and homes for inspection
prove-scenario init                              write scenarios.config.ts and scenarios/example.e2e.ts for the app in cwd
prove-scenario run --at <ref> <scenario-file>    one side: 0 pass, 1 fail, 125 could not run (git bisect run)
prove-scenario demo [<bug-id>|all] [options]     prove a seeded fix of the bundled app (in a clone of scenario-prover);
                                                 takes --out, --json, --repeat, --sequential, --keep

The config's app: root, install, build, start, ready, cli, homeEnv, provider, env, passEnv;
see docs/config.md (in an installed package: node_modules/scenario-prover/docs/config.md).
Exit codes: 0 proved (fails on base, passes on head); 1 ran but did not prove the fix; 2 could not run.`;

const scenarioFlags = {
  repo: { type: "string" },
  config: { type: "string" },
  grep: { type: "string" },
  keep: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const outputFlags = {
  repeat: { type: "string" },
  out: { type: "string" },
  json: { type: "boolean" },
  sequential: { type: "boolean" },
  keep: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const proveFlags = {
  ...scenarioFlags,
  ...outputFlags,
  base: { type: "string" },
  head: { type: "string" },
} as const;

const runFlags = { ...scenarioFlags, at: { type: "string" } } as const;

function parse<const Flags extends NonNullable<ParseArgsConfig["options"]>>(args: ReadonlyArray<string>, options: Flags) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError({ detail: error instanceof Error ? error.message : String(error) });
  }
}

function required(value: string | undefined, flag: string, example: string): string {
  if (value === undefined || value === "") throw new UsageError({ detail: `${flag} is required, e.g. ${flag} ${example}.` });
  return value;
}

function oneScenario(positionals: ReadonlyArray<string>): string {
  const [scenario, ...extra] = positionals;
  if (scenario === undefined) throw new UsageError({ detail: "Name the scenario file, e.g. scenarios/my-bug.e2e.ts." });
  if (extra.length > 0) {
    throw new UsageError({ detail: `One scenario file per proof; also got ${extra.join(" ")}. Use --grep to pick one test of a file.` });
  }
  return scenario;
}

function repeatCount(value: string | undefined): number {
  if (value === undefined) return 1;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new UsageError({ detail: `--repeat takes a whole number of runs, 1 or more; got ${JSON.stringify(value)}.` });
  return count;
}

function output(values: { repeat?: string; out?: string; json?: boolean; sequential?: boolean; keep?: boolean }): OutputOptions {
  return {
    repeat: repeatCount(values.repeat),
    out: values.out,
    json: values.json === true,
    sequential: values.sequential === true,
    keep: values.keep === true,
  };
}

/** Reads the command line (without `node` and the script). Throws UsageError when it does not fit. */
export function parseCommand(argv: ReadonlyArray<string>): Command {
  const [first, ...rest] = argv;
  if (first === "init") {
    const { values, positionals } = parse(rest, { help: { type: "boolean", short: "h" } });
    if (values.help === true) return { kind: "help" };
    if (positionals.length > 0) throw new UsageError({ detail: `init takes no arguments; got ${positionals.join(" ")}. Run it in the app's folder.` });
    return { kind: "init" };
  }
  if (first === "demo") {
    const { values, positionals } = parse(rest, outputFlags);
    if (values.help === true) return { kind: "help" };
    if (positionals.length > 1) throw new UsageError({ detail: `demo takes one bug id or "all"; got ${positionals.join(" ")}.` });
    return { kind: "demo", options: { bugId: positionals[0], ...output(values) } };
  }
  if (first === "run") {
    const { values, positionals } = parse(rest, runFlags);
    if (values.help === true) return { kind: "help" };
    return {
      kind: "run",
      options: {
        at: required(values.at, "--at", "HEAD"),
        scenario: oneScenario(positionals),
        repo: values.repo,
        config: values.config,
        grep: values.grep,
        keep: values.keep === true,
      },
    };
  }
  const { values, positionals } = parse(argv, proveFlags);
  if (values.help === true || argv.length === 0) return { kind: "help" };
  return {
    kind: "prove",
    options: {
      base: required(values.base, "--base", "main"),
      head: required(values.head, "--head", "HEAD"),
      scenario: oneScenario(positionals),
      repo: values.repo,
      config: values.config,
      grep: values.grep,
      ...output(values),
    },
  };
}
