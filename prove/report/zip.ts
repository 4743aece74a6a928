import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * Just enough of the zip format to rewrite a Playwright trace with secrets taken out: read the
 * central directory, inflate each entry, and write the entries back, re-compressing only those
 * that changed. Zip64 and compression methods other than store and deflate are not read.
 */

const localSignature = 0x04034b50;
const centralSignature = 0x02014b50;
const endSignature = 0x06054b50;
const dataDescriptorFlag = 0x0008;

interface Entry {
  readonly name: Buffer;
  readonly flags: number;
  readonly method: number;
  readonly time: number;
  readonly date: number;
  readonly crc: number;
  readonly uncompressedSize: number;
  readonly externalAttributes: number;
  readonly data: Buffer;
}

function findEnd(zip: Buffer): number | undefined {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === endSignature) return at;
  }
  return undefined;
}

function readEntries(zip: Buffer): Entry[] | undefined {
  const end = findEnd(zip);
  if (end === undefined) return undefined;
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) return undefined;
  const entries: Entry[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== centralSignature) return undefined;
    const compressedSize = zip.readUInt32LE(at + 20);
    const uncompressedSize = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || local === 0xffffffff) return undefined;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== localSignature) return undefined;
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + compressedSize > zip.length) return undefined;
    entries.push({
      name: zip.subarray(at + 46, at + 46 + nameLength),
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      time: zip.readUInt16LE(at + 12),
      date: zip.readUInt16LE(at + 14),
      crc: zip.readUInt32LE(at + 16),
      uncompressedSize,
      externalAttributes: zip.readUInt32LE(at + 38),
      data: zip.subarray(start, start + compressedSize),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function contentOf(entry: Entry): Buffer | undefined {
  if (entry.method === 0) return entry.data;
  if (entry.method === 8) return inflateRawSync(entry.data);
  return undefined;
}

function writeZip(entries: ReadonlyArray<Entry>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const flags = entry.flags & ~dataDescriptorFlag;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(localSignature, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(entry.time, 10);
    local.writeUInt16LE(entry.date, 12);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.uncompressedSize, 22);
    local.writeUInt16LE(entry.name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, entry.name, entry.data);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(centralSignature, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt16LE(entry.time, 12);
    central.writeUInt16LE(entry.date, 14);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.uncompressedSize, 24);
    central.writeUInt16LE(entry.name.length, 28);
    central.writeUInt32LE(entry.externalAttributes, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, entry.name);
    offset += local.length + entry.name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(endSignature, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * Applies `transform` to the content of every entry and returns the rewritten zip, or
 * undefined when the zip cannot be read (then it must not be copied as it is).
 */
export function rewriteZip(zip: Buffer, transform: (content: Buffer) => Buffer): Buffer | undefined {
  const entries = readEntries(zip);
  if (entries === undefined) return undefined;
  const rewritten: Entry[] = [];
  for (const entry of entries) {
    const content = contentOf(entry);
    if (content === undefined) return undefined;
    const changed = transform(content);
    rewritten.push(
      changed === content
        ? entry
        : { ...entry, method: 8, crc: crc32(changed), uncompressedSize: changed.length, data: deflateRawSync(changed) },
    );
  }
  return writeZip(rewritten);
}
