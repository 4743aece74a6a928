import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { writeSandboxFiles, type ZooBug } from "../../demo/index.ts";

/**
 * A repository of the bundled app with a history to bisect, from one bug of the zoo: tag `v1`
 * holds the app as shipped, then `length` commits follow on `main`, each a harmless README line
 * but for the commit `bug` (1-based from v1), which reverses the bug's fix, and the commits
 * `broken`, which make the app depend on a package that does not exist (so the frozen install
 * fails at once), each undone by the commit after it. Every commit has its own author date;
 * the bug's commit alone is by "Robin Refactor".
 */
export interface BisectRepo {
  readonly dir: string;
  /** v1's SHA, then each commit's after it: `shas[i]` is commit i. */
  readonly shas: ReadonlyArray<string>;
  readonly subjects: ReadonlyArray<string>;
  readonly git: (...args: string[]) => Promise<string>;
}

export interface BisectHistory {
  readonly length: number;
  readonly bug: number;
  readonly broken: ReadonlyArray<number>;
}

const manifest = "examples/agent-chat/package.json";
/** A dependency no registry has: pnpm's frozen install stops at once, the lockfile not matching package.json. */
const missing = "@scenario-prover-bisect/never-published";

export const brokenSubject = "agent-chat: depend on the shared helpers";
export const unbrokenSubject = "agent-chat: drop the helpers again, they are not published";
export const bugAuthor = "Robin Refactor";

export async function makeBisectRepo(dir: string, bug: ZooBug, checkout: string, history: BisectHistory): Promise<BisectRepo> {
  await writeSandboxFiles(checkout, dir);
  const shipped = await readFile(join(dir, manifest), "utf8");
  const parsed = JSON.parse(shipped) as { readonly dependencies: Readonly<Record<string, string>> };
  const withMissing = JSON.stringify({ ...parsed, dependencies: { ...parsed.dependencies, [missing]: "^1.0.0" } }, null, 2);
  let identity: Record<string, string> = {};
  const git = async (...args: string[]) => (await execa("git", args, { cwd: dir, env: identity })).stdout;
  const shas: string[] = [];
  const subjects: string[] = [];
  const commit = async (index: number, subject: string, author = "Sam Steady") => {
    identity = {
      GIT_AUTHOR_NAME: author,
      GIT_AUTHOR_EMAIL: `${author.split(" ")[0]?.toLowerCase() ?? "dev"}@example.com`,
      GIT_AUTHOR_DATE: `2026-11-${String(1 + Math.floor(index / 24)).padStart(2, "0")}T${String(index % 24).padStart(2, "0")}:00:00+01:00`,
      GIT_COMMITTER_NAME: author,
      GIT_COMMITTER_EMAIL: "dev@example.com",
    };
    await git("add", "--all");
    await git("-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", "commit", "--quiet", "--no-verify", "-m", subject);
    shas.push(await git("rev-parse", "HEAD"));
    subjects.push(subject);
  };
  await git("init", "--quiet", "-b", "main");
  await commit(0, "agent-chat as shipped");
  await git("tag", "v1");
  for (let index = 1; index <= history.length; index++) {
    if (index === history.bug) {
      await git("apply", "--reverse", bug.patch);
      await commit(index, `agent-chat: ${bug.title}`, bugAuthor);
    } else if (history.broken.includes(index)) {
      await writeFile(join(dir, manifest), `${withMissing}\n`);
      await commit(index, brokenSubject);
    } else if (history.broken.includes(index - 1)) {
      await writeFile(join(dir, manifest), shipped);
      await commit(index, unbrokenSubject);
    } else {
      await appendFile(join(dir, "README.md"), `- note ${index}\n`);
      await commit(index, `docs: note ${index}`);
    }
  }
  return { dir, shas, subjects, git };
}
