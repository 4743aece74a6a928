import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/** The source files init reads for what the app's own code names: JavaScript, TypeScript, Python, Go, Ruby. */
const sourceFile = /\.(?:[cm]?[jt]sx?|py|go|rb)$/;
/** Tests' files, which name what a test asks for rather than what the app calls. */
const testFile = /\.(?:test|spec|e2e)\.[cm]?[jt]sx?$|^test_.*\.py$|_test\.(?:py|go)$|_spec\.rb$/;
/** Folders that hold no app source of its own: dependencies, builds, tests and their output. */
const skipped = new Set([
  "node_modules",
  "dist",
  "build",
  "out",
  "coverage",
  "__pycache__",
  "venv",
  "vendor",
  "test",
  "tests",
  "__tests__",
  "spec",
  "e2e",
  "scenarios",
]);
/** Enough for an app's own source; a bigger tree is read up to here. */
const maxFiles = 2000;
/** A bigger file is generated or bundled code, not the app's own; it is skipped. */
const maxBytes = 512 * 1024;

/** The app's source files under `dir`, depth first in name order, without the folders above or hidden ones (.git, .next, .venv). */
export async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (files.length >= maxFiles) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && !skipped.has(entry.name) && !entry.name.startsWith(".")) await walk(path);
      else if (entry.isFile() && sourceFile.test(entry.name) && !testFile.test(entry.name)) files.push(path);
    }
  };
  await walk(dir);
  return files;
}

/** A source file's text; undefined when it is over the size cap. */
export async function readSource(file: string): Promise<string | undefined> {
  return (await stat(file)).size > maxBytes ? undefined : readFile(file, "utf8");
}
