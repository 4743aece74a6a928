import { randomUUID } from "node:crypto";

/** The text a step appends to `$GITHUB_OUTPUT` to set its outputs. */

export interface StepOutput {
  readonly name: string;
  readonly value: string;
  /** Whether the value may hold a line break (a path may): it then always goes in heredoc form. */
  readonly multiline: boolean;
}

const delimiter = () => `ghadelimiter_${randomUUID()}`;

/**
 * `name=value` lines, or the heredoc form `name<<DELIMITER` for a value that may hold a line break;
 * the delimiter is random and never a line of the value, since the runner reads up to it.
 */
export function githubOutputText(outputs: ReadonlyArray<StepOutput>): string {
  return outputs
    .map(({ name, value, multiline }) => {
      if (!multiline && !/[\r\n]/.test(value)) return `${name}=${value}\n`;
      let end = delimiter();
      while (value.split(/\r?\n/).includes(end)) end = delimiter();
      return `${name}<<${end}\n${value}\n${end}\n`;
    })
    .join("");
}
