import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { BrokenBug, NoZoo, UnknownBug } from "./errors.ts";

/** The app the zoo's bugs live in, relative to the repository root. */
export const appPath = "examples/agent-chat";

/** The bug `pnpm demo` proves: the most visual one (three broken tool-call chips against two right ones). */
export const defaultBugId = "tool-calls-merged-by-id";

/** One bug of the zoo, read from `examples/agent-chat/bugs/<id>/`. */
export interface ZooBug {
  readonly id: string;
  /** The README's heading, e.g. "Tool-call deltas are merged by id instead of index". */
  readonly title: string;
  /** The README's first paragraph: the bug in one sentence. */
  readonly summary: string;
  /** The scenario that proves the fix, relative to the repository root (the `scenario` file's line). */
  readonly scenario: string;
  /** Absolute path of `fix.patch`, which turns the buggy app into the shipped one. */
  readonly patch: string;
  /** Files the patch changes, relative to the repository root, sorted. */
  readonly files: ReadonlyArray<string>;
  /** The prover's options the fix is proved with beside the refs, the config and the scenario (the optional `proof` file's words, e.g. `--faster task`). */
  readonly options: ReadonlyArray<string>;
}

function bugsDir(repoRoot: string): string {
  return join(repoRoot, appPath, "bugs");
}

/** Every bug of the zoo, sorted by id. */
export async function listBugs(repoRoot: string): Promise<ReadonlyArray<ZooBug>> {
  if (!existsSync(bugsDir(repoRoot))) throw new NoZoo({ dir: bugsDir(repoRoot) });
  const entries = await readdir(bugsDir(repoRoot), { withFileTypes: true });
  const ids = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(ids.map((id) => readBug(repoRoot, id)));
}

/** The bug called `bugId`; rejects with UnknownBug naming the known ids. */
export async function findBug(repoRoot: string, bugId: string): Promise<ZooBug> {
  const bugs = await listBugs(repoRoot);
  const bug = bugs.find((candidate) => candidate.id === bugId);
  if (bug === undefined) throw new UnknownBug({ bugId, known: bugs.map((candidate) => candidate.id) });
  return bug;
}

async function readBug(repoRoot: string, id: string): Promise<ZooBug> {
  const dir = join(bugsDir(repoRoot), id);
  const broken = (detail: string) => new BrokenBug({ bugId: id, dir, detail });
  const read = async (name: string) => {
    const file = join(dir, name);
    if (!existsSync(file)) throw broken(`${name} is missing; a bug folder holds fix.patch, README.md and scenario.`);
    return readFile(file, "utf8");
  };
  const [readme, scenarioLine, patchText] = await Promise.all([read("README.md"), read("scenario"), read("fix.patch")]);
  // Optional: a fix proved some other way than by a scenario that fails on base (a performance fix, `--faster <metric>`).
  const proofFile = join(dir, "proof");
  const options = existsSync(proofFile)
    ? (await readFile(proofFile, "utf8"))
        .trim()
        .split(/\s+/)
        .filter((word) => word !== "")
    : [];
  const { title, summary } = readmeParts(readme);
  if (title === "" || summary === "")
    throw broken("README.md must start with a `# title` line and a paragraph saying the bug in one sentence.");
  const scenario = scenarioLine.trim();
  if (!existsSync(join(repoRoot, scenario)))
    throw broken(`its scenario file says ${scenario}, which does not exist; write the scenario's path relative to the repository root.`);
  const files = patchFiles(patchText);
  if (files.length === 0) throw broken("fix.patch changes no file; make it with `git diff` from the buggy app to the shipped one.");
  return { id, title, summary, scenario, patch: join(dir, "fix.patch"), files, options };
}

function readmeParts(readme: string): { title: string; summary: string } {
  const [heading = "", ...rest] = readme.trim().split(/\n\s*\n/);
  const title = /^# (.+)$/.exec(heading.trim())?.[1]?.trim() ?? "";
  const summary = (rest[0] ?? "").replace(/\s+/g, " ").trim();
  return { title, summary };
}

/** The files a `git diff` patch changes, from its `diff --git a/<path> b/<path>` lines. */
function patchFiles(patch: string): ReadonlyArray<string> {
  const files = new Set<string>();
  for (const match of patch.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)) {
    if (match[1] !== undefined) files.add(match[1]);
    if (match[2] !== undefined) files.add(match[2]);
  }
  return [...files].sort();
}
