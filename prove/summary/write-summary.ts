import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ProofSummary } from "./schema.ts";
import { renderSummary } from "./markdown.ts";

/** Writes summary.json and summary.md into `dir`. */
export async function writeSummary(dir: string, summary: ProofSummary): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, summary.markdown), renderSummary(summary));
  await writeFile(join(dir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
}

/** Reads `dir`/summary.json; undefined when there is none or it is not a `scenario-proof-summary/v1`. */
export async function readSummary(dir: string): Promise<ProofSummary | undefined> {
  const text = await readFile(join(dir, "summary.json"), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && (value as { schema?: unknown }).schema === "scenario-proof-summary/v1"
      ? (value as ProofSummary)
      : undefined;
  } catch {
    return undefined;
  }
}
