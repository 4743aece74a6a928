// The shape of an option's and a command's declaration: what parsing, --help, docs/cli.md and the reproduce command read.
import type { Command } from "./types.ts";

/** The flags of one command line as parseArgs read them: a string option's text, a boolean option's presence. */
export type Given = Readonly<Record<string, string | boolean | undefined>>;

/** What every option declares, whatever its value. */
interface Declared {
  /** The flag without its dashes: `expect-timeout`. */
  readonly flag: string;
  /** What it is for, one phrase for --help and docs/cli.md. */
  readonly help: string;
  /** A one-letter alias: `h` for `-h`. */
  readonly short?: string;
  /** What leaving it out means; none for an option that is simply off without it. */
  readonly default?: string;
  /** The command cannot run without it: the synopsis shows it, and it is read before the positional arguments. */
  readonly required?: boolean;
  /** Options that only say how this one works (--publish's --remote): parsed with it, and filling no field of their own. */
  readonly with?: ReadonlyArray<AnyOption>;
}

/** An option that takes a value: `--out <dir>`. */
export interface StringOption<Key extends string, Value> extends Declared {
  readonly type: "string";
  /** The field of the command's options it fills. */
  readonly key: Key;
  /** Its value in help: `<dir>`. */
  readonly placeholder: string;
  /** A value for messages and docs: `--repo needs a value, e.g. --repo ../my-app.` */
  readonly example: string;
  /** Its value from the text typed (undefined when left out); throws UsageError when it does not fit. */
  read(value: string | undefined, self: StringOption<Key, Value>, given: Given): Value;
  /**
   * The text after the flag in a reproduce command, or undefined to leave the flag out. A value left
   * out (undefined) is never repeated, nor is an option without a reproduce form.
   */
  reproduce?(value: NonNullable<Value>): string | undefined;
}

/** An option that is on or off: `--json`. */
export interface BooleanOption<Key extends string, Value> extends Declared {
  readonly type: "boolean";
  readonly key: Key;
  read(value: boolean, self: BooleanOption<Key, Value>, given: Given): Value;
  reproduce?: undefined;
}

export type AnyOption = StringOption<string, unknown> | BooleanOption<string, unknown>;

/** The fields a list of options fills: `{ repo: string | undefined; keep: boolean; … }`. */
export type ValuesOf<Options extends ReadonlyArray<AnyOption>> = { readonly [O in Options[number] as O["key"]]: ReturnType<O["read"]> };

/** Declares an option that takes a value, keeping its key's literal type. */
export const stringOption = <Key extends string, Value>(option: StringOption<Key, Value>) => option;

/** Declares an option that is on or off, keeping its key's literal type. */
export const booleanOption = <Key extends string, Value>(option: BooleanOption<Key, Value>) => option;

/** The option as one command describes it: its own help, default or example, read the same way. */
export const describedAs = <Option extends AnyOption>(
  option: Option,
  text: { readonly help?: string; readonly default?: string; readonly example?: string },
): Option => ({ ...option, ...text });

/** One option's value from the flags parsed. */
export function readOption<Key extends string, Value>(option: StringOption<Key, Value> | BooleanOption<Key, Value>, given: Given): Value {
  const value = given[option.flag];
  return option.type === "string"
    ? option.read(typeof value === "string" ? value : undefined, option, given)
    : option.read(value === true, option, given);
}

/** A command's positional arguments: how the synopsis shows them and which fields they fill. */
export interface Positionals<Fields extends object> {
  /** As the synopsis shows them: `<scenario-file>`; empty for none. */
  readonly synopsis: string;
  /** What they are, for --help and docs/cli.md; empty for none. */
  readonly help: string;
  /** Their fields of the command's options; throws UsageError when there are too few or too many. */
  read(positionals: ReadonlyArray<string>): Fields;
}

/** A command: its word, what it does, its arguments and options, and its exit codes. */
export interface CommandSpec<Options extends ReadonlyArray<AnyOption> = ReadonlyArray<AnyOption>, Fields extends object = object> {
  readonly name: Exclude<Command["kind"], "help">;
  /** What it does, for --help and docs/cli.md. */
  readonly does: string;
  readonly positionals: Positionals<Fields>;
  /** Its options, in the order help lists them and a reproduce command repeats them. */
  readonly options: Options;
  /** Options the synopsis shows beside the required ones: compare's --threshold. */
  readonly shown?: ReadonlyArray<AnyOption>;
  /** What each exit code means. */
  readonly exitCodes: string;
  /** The command from its fields. */
  build(fields: Fields & ValuesOf<Options>): Command;
}

/** Declares a command, typing `build`'s fields from its positional arguments and options. */
export const defineCommand = <const Options extends ReadonlyArray<AnyOption>, Fields extends object>(spec: CommandSpec<Options, Fields>) =>
  spec;

/** The word that names a command on the command line; a proof names none. */
export const wordOf = (spec: Pick<CommandSpec, "name">): string | undefined => (spec.name === "prove" ? undefined : spec.name);

/** Names in prose: `--remote, --branch and --image-url`. */
export const listed = (names: ReadonlyArray<string>): string =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1] ?? ""}`;
