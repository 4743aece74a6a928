import { unzipSync, zipSync, type Zippable } from "fflate";

export interface ZipEntry {
  readonly name: string;
  readonly content: Buffer;
  /** Stored uncompressed (a trace's images), and kept so when written again. */
  readonly stored: boolean;
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The entries of a zip (a Playwright trace) in order, or undefined when it cannot be read. */
export function readZip(zip: Buffer): ReadonlyArray<ZipEntry> | undefined {
  const stored = new Set<string>();
  try {
    const entries = unzipSync(zip, {
      filter: (file) => {
        if (file.compression === 0) stored.add(file.name);
        return true;
      },
    });
    return Object.entries(entries).map(([name, content]) => ({ name, content: asBuffer(content), stored: stored.has(name) }));
  } catch {
    return undefined;
  }
}

/** A zip of these entries, stored ones stored. */
export function writeZip(entries: ReadonlyArray<ZipEntry>): Buffer {
  const zippable: Zippable = {};
  for (const entry of entries) zippable[entry.name] = [entry.content, { level: entry.stored ? 0 : 6 }];
  return asBuffer(zipSync(zippable));
}

/** The zip with `transform` applied to every entry; undefined when it cannot be read (then it must not be copied as is). */
export function rewriteZip(zip: Buffer, transform: (content: Buffer) => Buffer): Buffer | undefined {
  const entries = readZip(zip);
  return entries === undefined ? undefined : writeZip(entries.map((entry) => ({ ...entry, content: transform(entry.content) })));
}
