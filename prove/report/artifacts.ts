import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { AttachmentSource, AttemptArtifacts } from "../outcome/classify.ts";
import type { SideName } from "../outcome/types.ts";
import { distinctLabels, labelSlug } from "./labels.ts";
import { redact, type Redactions, type Replacement } from "./redact.ts";
import type { ReportScreenshot } from "./schema.ts";
import { loadSharp } from "./sharp.ts";
import { scrubTrace } from "./trace.ts";

export interface SideArtifacts {
  readonly screenshots: ReadonlyArray<ReportScreenshot>;
  readonly failureScreenshot?: ReportScreenshot;
  readonly trace?: string;
  readonly serverLog?: string;
}

async function bytesOf(source: AttachmentSource): Promise<Buffer | undefined> {
  if ("base64" in source) return Buffer.from(source.base64, "base64");
  return readFile(source.path).catch(() => undefined);
}

async function writeInto(dir: string, path: string, bytes: Buffer | string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), bytes);
}

/** Writes a screenshot into report folder `dir` at `path`, with its size; undefined when its bytes cannot be read. */
export async function copyImage(dir: string, path: string, label: string, source: AttachmentSource): Promise<ReportScreenshot | undefined> {
  const bytes = await bytesOf(source);
  if (bytes === undefined) return undefined;
  const { width, height } = await (await loadSharp())(bytes).metadata();
  await writeInto(dir, path, bytes);
  return { label, path, width, height };
}

/**
 * Copies one side's screenshots (`images/`), trace and server log (`<side>/`) into the report folder.
 * The trace and log are redacted into `found`; a trace that cannot be read is left out, never copied as is.
 */
export async function copySideArtifacts(
  side: SideName,
  artifacts: AttemptArtifacts,
  dir: string,
  replacements: ReadonlyArray<Replacement>,
  found: Redactions,
): Promise<SideArtifacts> {
  const labels = distinctLabels(artifacts.screenshots.map((shot) => shot.label));
  const used = new Set<string>();
  const screenshots: ReportScreenshot[] = [];
  for (const [index, shot] of artifacts.screenshots.entries()) {
    const label = labels[index] ?? shot.label;
    let name = `images/${side}-${labelSlug(label)}.png`;
    for (let n = 2; used.has(name); n++) name = `images/${side}-${labelSlug(label)}-${n}.png`;
    used.add(name);
    const copied = await copyImage(dir, name, label, shot.source);
    if (copied !== undefined) screenshots.push(copied);
  }

  const failureScreenshot =
    artifacts.failureScreenshot === undefined
      ? undefined
      : await copyImage(dir, `images/failure-${side}.png`, "failure", artifacts.failureScreenshot);

  let trace: string | undefined;
  const traceBytes = artifacts.trace === undefined ? undefined : await bytesOf(artifacts.trace);
  const redactedTrace = traceBytes === undefined ? undefined : scrubTrace(traceBytes, replacements, found);
  if (redactedTrace !== undefined) {
    trace = `${side}/trace.zip`;
    await writeInto(dir, trace, redactedTrace);
  }

  let serverLog: string | undefined;
  const logBytes = artifacts.serverLog === undefined ? undefined : await bytesOf(artifacts.serverLog);
  if (logBytes !== undefined) {
    serverLog = `${side}/server.log`;
    await writeInto(dir, serverLog, redact(logBytes.toString("utf8"), replacements, found));
  }

  return {
    screenshots,
    ...(failureScreenshot === undefined ? {} : { failureScreenshot }),
    ...(trace === undefined ? {} : { trace }),
    ...(serverLog === undefined ? {} : { serverLog }),
  };
}
