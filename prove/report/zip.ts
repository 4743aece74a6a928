import { unzipSync, zipSync, type Zippable } from "fflate";

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Applies `transform` to the content of every entry of a zip (a Playwright trace) and returns
 * the rewritten zip, or undefined when the zip cannot be read (then it must not be copied as it
 * is). Entries the zip stored uncompressed (a trace's images) stay stored.
 */
export function rewriteZip(zip: Buffer, transform: (content: Buffer) => Buffer): Buffer | undefined {
  const stored = new Set<string>();
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, {
      filter: (file) => {
        if (file.compression === 0) stored.add(file.name);
        return true;
      },
    });
  } catch {
    return undefined;
  }
  const rewritten: Zippable = {};
  for (const [name, content] of Object.entries(entries)) {
    rewritten[name] = [transform(asBuffer(content)), { level: stored.has(name) ? 0 : 6 }];
  }
  return asBuffer(zipSync(rewritten));
}
