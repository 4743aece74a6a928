// docs/cli.md, the command-line reference: generated from the commands' and options' declarations.
import { commandList } from "./commands.ts";
import { wordOf, type AnyOption, type CommandSpec } from "./declaration.ts";
import { help } from "./declarations.ts";
import { flagText, synopsis } from "./help.ts";

/** The page, from the package's root. */
export const cliDocPath = "docs/cli.md";

/** Prose for Markdown: `<` escaped outside code spans (`<base7>` is not an HTML tag), and `|` everywhere (a table cell ends at one). */
const markdown = (text: string) =>
  text
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replaceAll("<", "&lt;")))
    .join("")
    .replaceAll("|", "\\|");

/** A command's heading: `prove-scenario bisect`. */
const heading = (spec: CommandSpec) => `\`${["prove-scenario", wordOf(spec) ?? ""].join(" ").trim()}\``;

/** GitHub's anchor for a heading: lower case, spaces to dashes, punctuation but dashes dropped. */
const anchor = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replaceAll(" ", "-");

function optionRows(option: AnyOption): string[] {
  const row = (shown: AnyOption, prefix: string) =>
    `| \`${flagText(shown)}\` | ${prefix}${markdown(shown.help)} | ${shown.required === true ? "required" : markdown(shown.default ?? "")} |`;
  return [row(option, ""), ...(option.with ?? []).map((companion) => row(companion, `with \`--${option.flag}\`: `))];
}

function commandSection(spec: CommandSpec): string {
  const arguments_ = spec.positionals.help === "" ? [] : [`\`${spec.positionals.synopsis}\`: ${markdown(spec.positionals.help)}.`, ""];
  const options =
    spec.options.length === 0
      ? []
      : ["| Option | What it does | Default |", "| --- | --- | --- |", ...spec.options.flatMap((option) => optionRows(option)), ""];
  return [
    `## ${heading(spec)}`,
    "",
    "```",
    synopsis(spec),
    "```",
    "",
    markdown(spec.does),
    "",
    ...arguments_,
    ...options,
    `Exit codes: ${markdown(spec.exitCodes)}`,
  ].join("\n");
}

/** The whole page. */
export function cliDoc(): string {
  return [
    "# Command-line reference",
    "",
    "<!-- Generated from prove/options/ by `pnpm docs:cli`: change the declarations there, then regenerate this page. -->",
    "",
    `\`prove-scenario --help\` prints the same, more briefly. Every command takes \`${flagText(help)}\` (${help.help}). ` +
      "A command line that does not fit exits 2 (`run`: 125) and says what to change. " +
      "The scenario config, which says how to install, build and start the app, is described in [config.md](config.md).",
    "",
    ...commandList.map((spec) => `- [${heading(spec)}](#${anchor(heading(spec))}): ${markdown(spec.does)}`),
    "",
    commandList.map(commandSection).join("\n\n"),
    "",
  ].join("\n");
}
