import { describe, expect, it } from "vitest";
import { commandList, commands } from "./commands.ts";
import { commandHelp, flagText, optionHelp, synopsis, usage } from "./help.ts";

/** Text with its line breaks and runs of spaces made single spaces, as a wrapped line reads. */
const flat = (text: string) => text.replace(/\s+/g, " ");

describe("--help, generated from the declarations", () => {
  it("starts each command's part with its synopsis: the word, required options, positional arguments, picked options", () => {
    expect(commandList.map(synopsis)).toEqual([
      "prove-scenario --base <ref> --head <ref> <scenario-file-or-folder>... [options]",
      "prove-scenario init",
      "prove-scenario run --at <ref> <scenario-file> [options]",
      "prove-scenario publish <report-dir> [--remote <name>] [--branch <name>] [--image-url <url>]",
      "prove-scenario merge <dir>... [--out <dir>] [--json] [--publish]",
      "prove-scenario demo [<bug-id>|all] [options]",
      "prove-scenario bisect --old <ref> --new <ref> <scenario-file> [options]",
      "prove-scenario compare --base <ref> --head <ref> <scenario-file> [--threshold <share>] [options]",
    ]);
    expect(usage.split("\n\n").slice(0, commandList.length)).toEqual(commandList.map(commandHelp));
  });

  it("describes every option a proof takes, with its default and the options that come with it", () => {
    const proof = flat(commandHelp(commands.prove));
    for (const option of commands.prove.options) expect(proof).toContain(flat(`${flagText(option)} ${optionHelp(option)}`));
    expect(proof).toContain(
      "--publish then publish the images and write pr.md, as `publish` does; takes --remote, --branch and --image-url",
    );
    expect(proof).toContain("(default: scenarios.config.ts, else playwright.config.ts, in cwd, else at the checkout's root)");
  });

  it.each(commandList.filter((spec) => spec.name !== "prove").map((spec) => [spec.name, spec] as const))(
    "describes each option of %s, or names it among those it takes as a proof does",
    (_name, spec) => {
      const part = flat(commandHelp(spec));
      const alsoTakes = /Also takes (.*), as a proof does\./.exec(part)?.[1] ?? "";
      for (const option of spec.options) {
        const described = part.includes(flat(`${flagText(option)} ${optionHelp(option)}`));
        const asForProof = commands.prove.options.some((proved) => optionHelp(proved) === optionHelp(option));
        expect(described || (asForProof && alsoTakes.includes(`--${option.flag}`)), `--${option.flag} in ${part}`).toBe(true);
      }
    },
  );

  it("describes the options that come with --publish under publish, and says what each command's exit codes mean", () => {
    const part = flat(commandHelp(commands.publish));
    for (const option of commands.prove.options.flatMap((proved) => proved.with ?? [])) {
      expect(part).toContain(flat(`${flagText(option)} ${optionHelp(option)}`));
    }
    expect(usage.match(/^ {2}Exit codes: /gm)).toHaveLength(commandList.length);
    expect(flat(usage)).toContain("see docs/config.md (in an installed package: node_modules/scenario-prover/docs/config.md)");
  });

  it("fits in 100 columns", () => {
    expect(usage.split("\n").filter((line) => line.length > 100)).toEqual([]);
  });
});
