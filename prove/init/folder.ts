import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { simpleGit } from "simple-git";
import { upTo } from "../install/package-manager.ts";
import type { AppFiles } from "./detect.ts";
import { InitFailed } from "./errors.ts";
import { lockfileNames } from "./manager.ts";

/** The top-level folder of the git repository holding `dir`; undefined when it is not in one. */
export async function gitTopLevel(dir: string): Promise<string | undefined> {
  try {
    return (await simpleGit(dir).revparse(["--show-toplevel"])).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The nearest lockfile from `dir` up to `top` (both included), relative to `dir`. */
export function nearestLockfile(dir: string, top: string): string | undefined {
  for (let folder = dir; ; folder = dirname(folder)) {
    const found = lockfileNames.find(([file]) => existsSync(join(folder, file)));
    if (found !== undefined) return relative(dir, join(folder, found[0]));
    if (folder === top || dirname(folder) === folder || relative(top, folder).startsWith("..")) return undefined;
  }
}

/** A file's text by its path relative to `dir`; undefined when it is missing or not a file. */
export function reader(dir: string): (file: string) => string | undefined {
  return (file) => {
    const path = join(dir, file);
    return existsSync(path) && statSync(path).isFile() ? readFileSync(path, "utf8") : undefined;
  };
}

/** The files under a folder of `dir`, relative to that folder with forward slashes; none when it is missing. */
export function lister(dir: string): (folder: string) => ReadonlyArray<string> {
  return (folder) => {
    const path = join(dir, folder);
    if (!existsSync(path) || !statSync(path).isDirectory()) return [];
    return readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(path, join(entry.parentPath, entry.name)).split(sep).join("/"))
      .sort();
  };
}

/** package.json's text and value; InitFailed when `dir` has none or it is not a JSON object. */
export async function readPackageJson(dir: string): Promise<{ readonly text: string; readonly value: Readonly<Record<string, unknown>> }> {
  const file = join(dir, "package.json");
  if (!existsSync(file)) {
    throw new InitFailed({
      file,
      detail: `there is no package.json in ${dir}. Run prove-scenario init in the app's folder, the one holding its package.json.`,
    });
  }
  const text = await readFile(file, "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InitFailed({
      file,
      detail: `it is not valid JSON (${error instanceof Error ? error.message : String(error)}). Fix it and run init again.`,
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InitFailed({ file, detail: "it does not hold a JSON object. Fix it and run init again." });
  }
  return { text, value: value as Record<string, unknown> };
}

/** The app folder `dir` as detection sees it, its lockfile looked for up to `top`. */
export function readAppFolder(dir: string, top: string, packageJson: Readonly<Record<string, unknown>>): AppFiles {
  return { dir, packageJson, lockfile: nearestLockfile(dir, top), read: reader(dir), list: lister(dir) };
}

/** The version of the package `name` in the nearest node_modules from `dir` up to `top`; undefined when none holds it. */
export function installedVersion(dir: string, top: string, name: string): string | undefined {
  const file = upTo(dir, top)
    .map((folder) => join(folder, "node_modules", name, "package.json"))
    .find((candidate) => existsSync(candidate));
  if (file === undefined) return undefined;
  try {
    const { version } = JSON.parse(readFileSync(file, "utf8")) as { readonly version?: unknown };
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}
