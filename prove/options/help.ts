// `prove-scenario --help`: generated from the commands' and options' declarations.
import { commandList, commands } from "./commands.ts";
import { listed, wordOf, type AnyOption, type CommandSpec } from "./declaration.ts";
import { help } from "./declarations.ts";

const width = 100;

/** How an option is typed: `--out <dir>`, `-h, --help`. */
export const flagText = (option: AnyOption): string =>
  `${option.short === undefined ? "" : `-${option.short}, `}--${option.flag}${option.type === "string" ? ` ${option.placeholder}` : ""}`;

/** `prove-scenario compare --base <ref> --head <ref> <scenario-file> [--threshold <share>] [options]`: required options bare, picked ones in brackets. */
export function synopsis(spec: CommandSpec): string {
  const required = spec.options.filter((option) => option.required === true);
  const shown = spec.shown ?? [];
  const others = spec.options.filter((option) => !required.includes(option) && !shown.some((picked) => picked.flag === option.flag));
  return [
    "prove-scenario",
    wordOf(spec) ?? "",
    ...required.map(flagText),
    spec.positionals.synopsis,
    ...shown.map((option) => `[${flagText(option)}]`),
    others.length > 0 ? "[options]" : "",
  ]
    .filter((part) => part !== "")
    .join(" ");
}

/** Words into lines of at most `width` characters after `indent` spaces; the first line starts with `first` instead. */
function wrap(text: string, indent: number, first: string = " ".repeat(indent)): string[] {
  const lines: string[] = [];
  let line = first;
  let words = 0;
  for (const word of text.split(" ")) {
    if (words > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = " ".repeat(indent);
      words = 0;
    }
    line = words === 0 ? `${line}${word}` : `${line} ${word}`;
    words += 1;
  }
  return [...lines, line];
}

/** An option's help with its default, and the options that come with it. */
export function optionHelp(option: AnyOption): string {
  const byDefault = option.default === undefined ? "" : ` (default: ${option.default})`;
  const companions = option.with === undefined ? "" : `; takes ${listed(option.with.map((other) => `--${other.flag}`))}`;
  return `${option.help}${byDefault}${companions}`;
}

/** Every flag's column: the help texts line up after the longest. */
const column =
  Math.max(
    ...commandList.flatMap((spec) => spec.options.flatMap((option) => [option, ...(option.with ?? [])])).map((o) => flagText(o).length),
  ) + 4;

/** The same option as a proof describes it: other commands name it without repeating its help. */
const asForProof = (option: AnyOption): boolean =>
  commands.prove.options.some((proved) => proved.flag === option.flag && proved.help === option.help && proved.default === option.default);

/** A line of the options' list: what is typed, then what it means, on the next line when what is typed is too long for its column. */
function entry(typed: string, meaning: string): string[] {
  const first = `  ${typed}`;
  return first.length + 2 > column ? [first, ...wrap(meaning, column)] : wrap(meaning, column, first.padEnd(column));
}

/** One command's part of --help: synopsis, what it does, its arguments and options, exit codes. */
export function commandHelp(spec: CommandSpec): string {
  const proof = spec.name === "prove";
  const described = spec.options.filter((option) => proof || !asForProof(option));
  const alsoTakes = spec.options.filter((option) => !described.includes(option)).map((option) => `--${option.flag}`);
  return [
    synopsis(spec),
    ...wrap(spec.does, 2),
    ...(spec.positionals.help === "" ? [] : entry(spec.positionals.synopsis, spec.positionals.help)),
    ...described.flatMap((option) => entry(flagText(option), optionHelp(option))),
    ...(alsoTakes.length === 0 ? [] : wrap(`Also takes ${listed(alsoTakes)}, as a proof does.`, 2)),
    ...wrap(`Exit codes: ${spec.exitCodes}`, 2),
  ].join("\n");
}

/** What --help prints. */
export const usage = [
  ...commandList.map(commandHelp),
  [
    ...wrap(
      `Every command takes ${flagText(help)}: ${help.help}. A command line that does not fit exits 2 (run: 125), saying what to change.`,
      0,
    ),
    "The config's app: root, install, build, start, ready, cli, homeEnv, provider, env, passEnv,",
    "services, prepare; see docs/config.md (in an installed package:",
    "node_modules/scenario-prover/docs/config.md).",
  ].join("\n"),
].join("\n\n");
