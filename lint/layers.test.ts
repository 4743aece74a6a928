import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

/** The layer messages ESLint gives one line of code written in `file`. */
async function refusals(file: string, code: string): Promise<ReadonlyArray<string>> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message);
}

describe("prove's layers: cli → commands → engine → the rest", () => {
  it.each([
    ["prove/report/x.ts", "../commands/prove.ts"],
    ["prove/report/x.ts", "../engine/run.ts"],
    ["prove/options/x.ts", "../bisect/find.ts"],
    ["prove/engine/x.ts", "../commands/prove.ts"],
    ["prove/engine/x.ts", "../cli.ts"],
    ["prove/bisect/x.ts", "../cli/commands.ts"],
    ["prove/commands/x.ts", "../cli/commands.ts"],
    ["prove/commands/x.ts", "../index.ts"],
    ["prove/errors-x.ts", "./engine/run.ts"],
  ])("%s may not import %s", async (file, target) => {
    const [refusal] = await refusals(file, `import { x } from "${target}";\nexport { x };\n`);
    expect(refusal).toContain("prove's layers run cli → commands → engine → the rest, never back up");
  });

  it.each([
    ["prove/commands/x.ts", "../engine/run.ts"],
    ["prove/commands/x.ts", "./prove.ts"],
    ["prove/engine/x.ts", "../report/write-report.ts"],
    ["prove/bisect/x.ts", "../engine/side.ts"],
    ["prove/options/x.ts", "./commands.ts"],
    ["prove/cli/x.ts", "../commands/prove.ts"],
    ["prove/e2e/x.test.ts", "../cli.ts"],
  ])("%s may import %s", async (file, target) => {
    expect(await refusals(file, `import { x } from "${target}";\nexport { x };\n`)).toEqual([]);
  });
});
