import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../package-root.ts";
import { cliDoc, cliDocPath } from "./cli-doc.ts";
import { commandList } from "./commands.ts";
import { flagText, synopsis } from "./help.ts";

describe("docs/cli.md, the command-line reference", () => {
  it("is what the declarations generate", async () => {
    const written = await readFile(join(packageRoot, cliDocPath), "utf8");
    expect(written, `${cliDocPath} differs from what prove/options/ declares: run \`pnpm docs:cli\` to regenerate it, and commit it`).toBe(
      cliDoc(),
    );
  });

  it.each(commandList.map((spec) => [spec.name, spec] as const))(
    "gives %s its synopsis, what it does, a row for every option it takes, and its exit codes",
    (_name, spec) => {
      const section = cliDoc()
        .split("\n## ")
        .find((part) => part.includes(`\`\`\`\n${synopsis(spec)}\n\`\`\``));
      expect(section).toBeDefined();
      expect(section).toContain(spec.does.split(" ").slice(0, 4).join(" "));
      for (const option of spec.options.flatMap((taken) => [taken, ...(taken.with ?? [])])) {
        expect(section).toContain(`| \`${flagText(option)}\` |`);
      }
      expect(section).toContain("Exit codes: ");
    },
  );
});
