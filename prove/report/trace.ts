import { createHash } from "node:crypto";
import { extname } from "node:path";
import { redact, redactBytes, type Redactions, type Replacement } from "./redact.ts";
import { readZip, writeZip, type ZipEntry } from "./zip.ts";

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/** Entries whose bytes hold no text (a screencast frame, a font): credential shapes are not looked for in them. */
const binary = /\.(?:jpe?g|png|webp|gif|avif|bmp|ico|woff2?|ttf|otf)$/i;

/** Every source file a trace's call stacks name (`"file":"…"` in its `.trace` entries). */
function sourceFiles(entries: ReadonlyArray<ZipEntry>): Set<string> {
  const files = new Set<string>();
  for (const entry of entries.filter((candidate) => candidate.name.endsWith(".trace"))) {
    for (const match of entry.content.toString("utf8").matchAll(/"file":("(?:[^"\\]|\\.)*")/g)) {
      const file: unknown = JSON.parse(match[1] ?? '""');
      if (typeof file === "string" && file !== "") files.add(file);
    }
  }
  return files;
}

/** Renames for source entries whose path is rewritten: the trace viewer finds a source by the SHA-1 of its path. */
function sourceRenames(entries: ReadonlyArray<ZipEntry>, replacements: ReadonlyArray<Replacement>): Map<string, string> {
  const renames = new Map<string, string>();
  for (const file of sourceFiles(entries)) {
    const shown = redact(file, replacements);
    if (shown === file) continue;
    const [from, to] = [sha1(file), sha1(shown)];
    renames.set(`src/${from}${extname(file)}`, `src/${to}${extname(shown)}`);
    renames.set(`resources/src@${from}.txt`, `resources/src@${to}.txt`);
  }
  return renames;
}

/**
 * A Playwright trace redacted inside each of its files (into `found`), its sources still found by the
 * viewer; undefined when it cannot be read (then it must not be copied as is).
 */
export function scrubTrace(zip: Buffer, replacements: ReadonlyArray<Replacement>, found?: Redactions): Buffer | undefined {
  const entries = readZip(zip);
  if (entries === undefined) return undefined;
  const renames = sourceRenames(entries, replacements);
  return writeZip(
    entries.map((entry) => ({
      ...entry,
      name: renames.get(entry.name) ?? entry.name,
      content: redactBytes(entry.content, replacements, found, !binary.test(entry.name)),
    })),
  );
}
