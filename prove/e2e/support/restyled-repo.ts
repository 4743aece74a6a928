import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { writeSandboxFiles } from "../../demo/index.ts";

/**
 * A sandbox repository of the bundled app (laid out as `demo` lays it out) with two commits: `app`,
 * the app as it is, and `restyled`, a change to its stylesheet alone: a tool call's result gets a
 * yellow background, so a screenshot shows it only once a tool call is opened.
 */
export interface RestyledRepo {
  readonly dir: string;
  readonly base: "app";
  readonly head: "restyled";
  dispose(): Promise<void>;
}

const restyle = "\n.tool-result {\n  background: #fde68a;\n}\n";

export async function createRestyledRepo(checkout: string): Promise<RestyledRepo> {
  const dir = await mkdtemp(join(tmpdir(), "scenario-prover-restyled-"));
  const dispose = () => rm(dir, { recursive: true, force: true, maxRetries: 3 });
  // The repository's own identity, with no hook or signing of the developer's.
  const git = (...args: string[]) =>
    execa(
      "git",
      [
        "-c",
        "user.name=scenario-prover test",
        "-c",
        "user.email=test@scenario-prover.invalid",
        "-c",
        "commit.gpgsign=false",
        "-c",
        "core.hooksPath=/dev/null",
        ...args,
      ],
      { cwd: dir },
    );
  try {
    await writeSandboxFiles(checkout, dir);
    await git("init", "--quiet", "-b", "app");
    await git("add", "--all");
    await git("commit", "--quiet", "-m", "agent-chat as shipped");
    await git("checkout", "--quiet", "-b", "restyled");
    await appendFile(join(dir, "examples/agent-chat/public/style.css"), restyle);
    await git("commit", "--quiet", "--all", "-m", "Tool results on a yellow background");
  } catch (error) {
    await dispose();
    throw error;
  }
  return { dir, base: "app", head: "restyled", dispose };
}
