// Reads a command line into a Command, by the commands' and options' declarations.
import { parseArgs } from "node:util";
import { UsageError } from "../errors.ts";
import { commandList, commands } from "./commands.ts";
import { readOption, wordOf, type AnyOption, type CommandSpec, type Given } from "./declaration.ts";
import { help } from "./declarations.ts";
import type { Command } from "./types.ts";

/** Every option a command parses: --help, its own, and those that come with them (--publish's --remote). */
export const flagsOf = (spec: CommandSpec): ReadonlyArray<AnyOption> => [
  help,
  ...spec.options.flatMap((option) => [option, ...(option.with ?? [])]),
];

/** The command's parseArgs table. */
function flagTable(spec: CommandSpec) {
  return Object.fromEntries(
    flagsOf(spec).map((option) => [
      option.flag,
      option.short === undefined ? { type: option.type } : { type: option.type, short: option.short },
    ]),
  );
}

function parse(args: ReadonlyArray<string>, spec: CommandSpec): { readonly given: Given; readonly positionals: ReadonlyArray<string> } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: flagTable(spec), allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError({ detail: error instanceof Error ? error.message : String(error) });
  }
  refuseRepeated(parsed.tokens);
  const given: Record<string, string | boolean> = {};
  for (const [flag, value] of Object.entries(parsed.values))
    if (typeof value === "string" || typeof value === "boolean") given[flag] = value;
  return { given, positionals: parsed.positionals };
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

/** A first word that names no command, and no file or folder either, is a mistyped command rather than a scenario. */
function refuseUnknownCommand(first: string | undefined, exists: (typed: string) => boolean): void {
  if (first === undefined || !/^[A-Za-z][\w-]*$/.test(first) || exists(first)) return;
  const words = commandList.flatMap((spec) => wordOf(spec) ?? []);
  throw new UsageError({
    detail:
      `Unknown command ${JSON.stringify(first)}, and there is no scenario file or folder of that name. ` +
      `The commands are ${words.join(", ")}; a proof names no command: prove-scenario --base <ref> --head <ref> <scenario-file>.`,
  });
}

/** One command's line after its word: required options first, then its positional arguments, then its other options. */
function readCommand(spec: CommandSpec, args: ReadonlyArray<string>): Command {
  const { given, positionals } = parse(args, spec);
  if (given[help.flag] === true) return { kind: "help" };
  const fields: Record<string, unknown> = {};
  const read = (option: AnyOption) => {
    fields[option.key] = readOption(option, given);
  };
  spec.options.filter((option) => option.required === true).forEach(read);
  const positional = spec.positionals.read(positionals);
  spec.options.filter((option) => option.required !== true).forEach(read);
  return spec.build({ ...positional, ...fields });
}

/**
 * Reads the command line (without `node` and the script). Throws UsageError when it does not fit.
 * `exists` says whether a path as typed exists: a first word that names neither a command nor a path is a mistyped command.
 */
export function parseCommand(argv: ReadonlyArray<string>, exists: (typed: string) => boolean = () => true): Command {
  const [first, ...rest] = argv;
  const named = commandList.find((spec) => first !== undefined && wordOf(spec) === first);
  if (named !== undefined) return readCommand(named, rest);
  // Before the proof's options are read: a mistyped command with its own options (`bisec --old …`) is named as such, not as an unknown option.
  refuseUnknownCommand(first, exists);
  if (argv.length === 0) return { kind: "help" };
  return readCommand(commands.prove, argv);
}
