// The command line that runs a command again, each option written by its declaration's reproduce form.
import { wordOf, type AnyOption, type CommandSpec, type ValuesOf } from "./declaration.ts";

/**
 * The arguments that run `spec` again with `values`: its word, its required options, `positionals`,
 * then its other options, in the order it lists them. An option is repeated only when its value is
 * given and its declaration has a reproduce form that writes it.
 */
export function reproduceArguments<const Options extends ReadonlyArray<AnyOption>>(
  spec: CommandSpec<Options, object>,
  values: Partial<ValuesOf<Options>>,
  positionals: ReadonlyArray<string>,
): string[] {
  const given: Readonly<Record<string, unknown>> = values;
  const written = (option: AnyOption) => {
    const value = given[option.key];
    const text = value === undefined || value === null ? undefined : option.reproduce?.(value);
    return text === undefined ? [] : [`--${option.flag}`, text];
  };
  const word = wordOf(spec);
  return [
    ...(word === undefined ? [] : [word]),
    ...spec.options.filter((option) => option.required === true).flatMap(written),
    ...positionals,
    ...spec.options.filter((option) => option.required !== true).flatMap(written),
  ];
}
