import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { InitRefused } from "./errors.ts";

/** The files init creates, relative to the app's folder; it never writes over them. */
export const configFile = "scenarios.config.ts";
export const exampleFile = "scenarios/example.e2e.ts";
/** The example transcript, written beside the example when the app lists a model provider's SDK. */
export const transcriptFile = "scenarios/example.ndjson";

/** The package.json script init adds. */
export const scriptName = "prove-scenario";

/** Throws InitRefused naming the files of `files` (init's, relative to `dir`) that already exist in `dir`. */
export function refuseExisting(dir: string, files: ReadonlyArray<string>): void {
  const existing = files.filter((file) => existsSync(join(dir, file)));
  if (existing.length > 0) throw new InitRefused({ files: existing });
}

/** Writes a new file, with its folder; fails rather than replace one that appeared since `refuseExisting`. */
export async function writeNewFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, { flag: "wx" });
}

/**
 * package.json's text with `"prove-scenario": "prove-scenario"` added at the end of its scripts,
 * in the file's own indentation, line endings and final newline.
 */
export function withProverScript(text: string, value: Readonly<Record<string, unknown>>): string {
  const scripts = value.scripts as Readonly<Record<string, unknown>>;
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? (text.includes("\n") ? "  " : "");
  const json = JSON.stringify({ ...value, scripts: { ...scripts, [scriptName]: scriptName } }, null, indent);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return json.replaceAll("\n", eol) + (/\n$/.test(text) ? eol : "");
}

/** A file's text, undefined when there is none. */
export async function readIfExists(path: string): Promise<string | undefined> {
  return existsSync(path) ? readFile(path, "utf8") : undefined;
}
