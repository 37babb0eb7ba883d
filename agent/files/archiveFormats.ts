/**
 * The two archive formats of the file manager (docs/files.md#archives-and-pulls), read and written by our own code on
 * Node's zlib (no package: the file helper imports only Node's modules and ours):
 *
 * - `.tar.gz` / `.tgz`: POSIX ustar with PAX headers for long names and large sizes (read: ustar, PAX `path`/`size`,
 *   GNU long names); links and special files are read as such so the extractor can refuse them.
 * - `.zip`: deflate or stored entries; written with data descriptors and UTF-8 names (at most 65,535 entries and 4 GiB,
 *   no ZIP64), read from its central directory (ZIP64 sizes understood), each entry's CRC-32 checked.
 *
 * Nothing here touches a file by path: the caller (archives.ts) gives byte sources and sinks over the helper's checked
 * operations.
 */
import * as zlib from 'node:zlib';

export type ArchiveFormat = 'tar.gz' | 'zip';

export function archiveFormatOf(path: string): ArchiveFormat | undefined {
  const lower = path.toLowerCase();
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.zip')) return 'zip';
  return undefined;
}

export type EntryKind = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';
export type ArchiveEntry = { name: string; kind: EntryKind; size: number; mode: number; mtime: Date };

// ---- CRC-32 (zlib.crc32 from Node 20.15/22.2; a table for older ones)

let table: Uint32Array | undefined;
export function crc32(data: Buffer, previous = 0): number {
  const native = (zlib as { crc32?: (data: Buffer, value?: number) => number }).crc32;
  if (native) return native(data, previous);
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = (previous ^ 0xffffffff) >>> 0;
  for (const byte of data) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// ---- a pull reader over an async byte source

/** Reads exact amounts from a stream of chunks. */
export class ByteReader {
  readonly #source: AsyncIterator<Buffer>;
  #buffer: Buffer = Buffer.alloc(0);
  #ended = false;
  constructor(source: AsyncIterable<Buffer>) {
    this.#source = source[Symbol.asyncIterator]();
  }
  async #fill(want: number): Promise<void> {
    while (this.#buffer.length < want && !this.#ended) {
      const next = await this.#source.next();
      if (next.done) this.#ended = true;
      else this.#buffer = this.#buffer.length === 0 ? next.value : Buffer.concat([this.#buffer, next.value]);
    }
  }
  /** Exactly `length` bytes, or fewer only at the end of the source. */
  async read(length: number): Promise<Buffer> {
    await this.#fill(length);
    const out = this.#buffer.subarray(0, length);
    this.#buffer = this.#buffer.subarray(out.length);
    return out;
  }
  /** Up to `max` bytes (at least one unless at the end). */
  async some(max: number): Promise<Buffer> {
    await this.#fill(1);
    const out = this.#buffer.subarray(0, max);
    this.#buffer = this.#buffer.subarray(out.length);
    return out;
  }
}

// ---- tar

const BLOCK = 512;
const textOf = (block: Buffer, start: number, length: number) => {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
};
const octal = (block: Buffer, start: number, length: number): number => {
  const field = block.subarray(start, start + length);
  if (field[0]! & 0x80) {
    // base-256 (GNU) for large values
    let value = 0;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    return value;
  }
  const text = textOf(block, start, length).trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
};

export class ArchiveFormatError extends Error {}

const KINDS: Record<string, EntryKind> = { '0': 'file', '\0': 'file', '7': 'file', '5': 'directory', '2': 'symlink', '1': 'hardlink' };

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(at, space).toString('ascii'), 10);
    if (!Number.isSafeInteger(length) || length <= 0) throw new ArchiveFormatError('a PAX header is malformed');
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) out[record.slice(0, equals)] = record.slice(equals + 1);
    at += length;
  }
  return out;
}

/** Largest PAX or GNU long-name record read (a name is at most a few KiB). */
const MAX_META = 64 * 1024;
/**
 * Largest sum of the extended headers (PAX `x` and `g`, GNU `L` and `K`) before one entry: their records are merged,
 * so without a bound an archive of many small headers would grow that merge without end.
 */
export const MAX_META_PER_ENTRY = 1024 * 1024;

export type TarReadOptions = {
  /**
   * Called with the bytes of every header as it is read, beside the entries' data: its block, and an extended
   * header's (PAX `x`/`g`, GNU `L`/`K`) data and padding, or an entry's data padding. The extractor counts them
   * against its size limit (a gzip of endless headers, even empty ones, is then stopped like any bomb).
   */
  headerBytes?: (bytes: number) => void;
};

/**
 * The entries of a tar stream; `take(entry)` is called with each entry's data as an async iterable which must be
 * consumed (or not: it is skipped) before the next entry is read. A global PAX header (`g`, as `git archive` writes
 * one) and a GNU long link name (`K`, before a link, which the extractor refuses) are read, counted and ignored.
 */
export async function readTar(
  source: AsyncIterable<Buffer>,
  take: (entry: ArchiveEntry, data: AsyncIterable<Buffer>) => Promise<void>,
  options: TarReadOptions = {},
): Promise<void> {
  const reader = new ByteReader(source);
  let pax: Record<string, string> = {};
  let longName: string | undefined;
  let metaBytes = 0;
  for (;;) {
    const block = await reader.read(BLOCK);
    if (block.length === 0) return; // no end blocks: tolerated (as GNU tar does)
    if (block.length < BLOCK) throw new ArchiveFormatError('the archive ends inside a header');
    if (block.every((byte) => byte === 0)) return;
    const sum = octal(block, 148, 8);
    let check = 0;
    for (let i = 0; i < BLOCK; i++) check += i >= 148 && i < 156 ? 0x20 : block[i]!;
    if (sum !== check) throw new ArchiveFormatError('not a tar archive (a header checksum is wrong)');
    const type = String.fromCharCode(block[156]!);
    const meta = type === 'x' || type === 'g' || type === 'L' || type === 'K';
    let size = octal(block, 124, 12);
    if (pax.size !== undefined && !meta) size = Number(pax.size);
    if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveFormatError('an entry has a bad size');
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    if (meta) {
      if (size > MAX_META) throw new ArchiveFormatError('an extended header is too large');
      // Each header block counts too: endless empty headers are bounded like large ones.
      metaBytes += BLOCK + size;
      if (metaBytes > MAX_META_PER_ENTRY) throw new ArchiveFormatError(`the extended headers before one entry are larger than ${MAX_META_PER_ENTRY} bytes`);
      options.headerBytes?.(BLOCK + padded);
      const data = (await reader.read(padded)).subarray(0, size);
      if (data.length < size) throw new ArchiveFormatError('the archive ends inside an extended header');
      if (type === 'x') pax = { ...pax, ...parsePax(data) };
      else if (type === 'L') longName = textOf(data, 0, data.length);
      continue;
    }
    metaBytes = 0;
    options.headerBytes?.(BLOCK + padded - size);
    const prefix = block.subarray(257, 263).toString('latin1').startsWith('ustar') ? textOf(block, 345, 155) : '';
    const name = pax.path ?? longName ?? (prefix ? `${prefix}/${textOf(block, 0, 100)}` : textOf(block, 0, 100));
    const mtime = new Date((pax.mtime ? Number(pax.mtime) : octal(block, 136, 12)) * 1000);
    const entry: ArchiveEntry = { name, kind: KINDS[type] ?? 'other', size, mode: octal(block, 100, 8) & 0o7777, mtime };
    pax = {};
    longName = undefined;
    let left = size;
    const data = (async function* () {
      while (left > 0) {
        const chunk = await reader.some(Math.min(left, 256 * 1024));
        if (chunk.length === 0) throw new ArchiveFormatError('the archive ends inside an entry');
        left -= chunk.length;
        yield chunk;
      }
    })();
    await take(entry, data);
    while (left > 0) {
      const chunk = await reader.some(Math.min(left, 256 * 1024));
      if (chunk.length === 0) throw new ArchiveFormatError('the archive ends inside an entry');
      left -= chunk.length;
    }
    await reader.read(padded - size);
  }
}

/** One PAX record, `<length> key=value\n` (the length counting itself). */
export function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${length}${body}`, 'utf8');
}

/** One ustar header block: `type` is tar's type letter (`0` a file, `5` a directory; the reader refuses links). */
export function ustarBlock(name: string, type: string, size: number, mode: number, mtime: Date, linkName?: string): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name.slice(0, 100), 0, 100, 'utf8');
  block.write(`${(mode & 0o7777).toString(8).padStart(7, '0')}\0`, 100, 'ascii');
  block.write('0000000\0', 108, 'ascii');
  block.write('0000000\0', 116, 'ascii');
  block.write(`${Math.min(size, 0o77777777777).toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  block.write(
    `${Math.max(0, Math.floor(mtime.getTime() / 1000))
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
    'ascii',
  );
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  if (linkName) block.write(linkName, 157, 100, 'utf8');
  block.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** The header block(s) of a tar entry (a PAX header before it when its name or size needs one). */
export function tarHeader(entry: ArchiveEntry): Buffer {
  const name = entry.kind === 'directory' && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name;
  const type = entry.kind === 'directory' ? '5' : '0';
  const records: Buffer[] = [];
  if (Buffer.byteLength(name) > 100 || !/^[\x20-\x7e]*$/.test(name)) records.push(paxRecord('path', name));
  if (entry.size > 0o77777777777) records.push(paxRecord('size', String(entry.size)));
  const main = ustarBlock(Buffer.byteLength(name) > 100 ? name.slice(0, 99) : name, type, entry.size, entry.mode, entry.mtime);
  if (records.length === 0) return main;
  const data = Buffer.concat(records);
  return Buffer.concat([ustarBlock('PaxHeader', 'x', data.length, 0o644, entry.mtime), data, Buffer.alloc(tarPadding(data.length)), main]);
}
export const tarPadding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;
export const TAR_END = Buffer.alloc(BLOCK * 2);

// ---- zip

/** Random access to the archive's bytes (the helper's reads of an open file). */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;
export type ZipEntry = ArchiveEntry & { method: number; compressedSize: number; crc: number; localOffset: number; flags: number };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function dosTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}
const fromDos = (time: number, date: number) =>
  new Date(((date >> 9) & 0x7f) + 1980, ((date >> 5) & 0x0f) - 1, date & 0x1f, (time >> 11) & 0x1f, (time >> 5) & 0x3f, (time & 0x1f) * 2);

/** The entries of a zip archive of `size` bytes, from its central directory (at most `maxEntries`, else an error). */
export async function readZipDirectory(readAt: ReadAt, size: number, maxEntries: number): Promise<ZipEntry[]> {
  const tailLength = Math.min(size, 22 + 65_535);
  const tail = await readAt(size - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--)
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  if (at === -1) throw new ArchiveFormatError('not a zip archive (no end of central directory)');
  let count = tail.readUInt16LE(at + 10);
  let cdSize = tail.readUInt32LE(at + 12);
  let cdOffset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) {
    // ZIP64: its locator sits just before the end record.
    const locator = at >= 20 ? tail.subarray(at - 20, at) : undefined;
    if (!locator || locator.readUInt32LE(0) !== 0x07064b50) throw new ArchiveFormatError('a ZIP64 archive without its locator');
    const record = await readAt(Number(locator.readBigUInt64LE(8)), 56);
    if (record.readUInt32LE(0) !== 0x06064b50) throw new ArchiveFormatError('a ZIP64 archive without its end record');
    count = Number(record.readBigUInt64LE(32));
    cdSize = Number(record.readBigUInt64LE(40));
    cdOffset = Number(record.readBigUInt64LE(48));
  }
  if (count > maxEntries) throw new ArchiveLimitError(`the archive has ${count} entries, more than the limit of ${maxEntries}`);
  if (cdOffset + cdSize > size) throw new ArchiveFormatError('the zip central directory is outside the file');
  const directory = await readAt(cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > directory.length || directory.readUInt32LE(p) !== CENTRAL) throw new ArchiveFormatError('the zip central directory is malformed');
    const madeBy = directory.readUInt16LE(p + 4) >> 8;
    const flags = directory.readUInt16LE(p + 8);
    const method = directory.readUInt16LE(p + 10);
    const mtime = fromDos(directory.readUInt16LE(p + 12), directory.readUInt16LE(p + 14));
    const crc = directory.readUInt32LE(p + 16);
    let compressedSize = directory.readUInt32LE(p + 20);
    let size = directory.readUInt32LE(p + 24);
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    const external = directory.readUInt32LE(p + 38);
    let localOffset = directory.readUInt32LE(p + 42);
    const rawName = directory.subarray(p + 46, p + 46 + nameLength);
    const name = flags & 0x800 ? rawName.toString('utf8') : rawName.toString('latin1');
    const extra = directory.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength);
    for (let e = 0; e + 4 <= extra.length;) {
      const id = extra.readUInt16LE(e);
      const length = extra.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === 0xffffffff) {
          size = Number(extra.readBigUInt64LE(q));
          q += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(extra.readBigUInt64LE(q));
          q += 8;
        }
        if (localOffset === 0xffffffff) localOffset = Number(extra.readBigUInt64LE(q));
      }
      e += 4 + length;
    }
    const unixMode = madeBy === 3 ? external >>> 16 : 0;
    const type = unixMode & 0o170000;
    const kind: EntryKind =
      type === 0o120000
        ? 'symlink'
        : name.endsWith('/') || type === 0o040000 || external & 0x10
          ? 'directory'
          : type === 0 || type === 0o100000
            ? 'file'
            : 'other';
    entries.push({ name, kind, size, mode: unixMode & 0o7777, mtime, method, compressedSize, crc, localOffset, flags });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export class ArchiveLimitError extends Error {}

/** An entry's uncompressed bytes (stored or deflated), its CRC-32 checked, refusing more than `entry.size` bytes. */
export async function* zipEntryData(readAt: ReadAt, entry: ZipEntry, archiveSize: number): AsyncIterable<Buffer> {
  const local = await readAt(entry.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) throw new ArchiveFormatError(`${entry.name}: its local header is missing`);
  const start = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const end = start + entry.compressedSize;
  if (end > archiveSize) throw new ArchiveFormatError(`${entry.name}: its data is outside the archive`);
  if (entry.method !== 0 && entry.method !== 8)
    throw new ArchiveFormatError(`${entry.name}: compression method ${entry.method} is not supported (only stored and deflate)`);
  async function* raw() {
    for (let at = start; at < end;) {
      const chunk = await readAt(at, Math.min(256 * 1024, end - at));
      if (chunk.length === 0) throw new ArchiveFormatError(`${entry.name}: the archive ends inside it`);
      at += chunk.length;
      yield chunk;
    }
  }
  let crc = 0;
  let produced = 0;
  const check = (chunk: Buffer) => {
    produced += chunk.length;
    if (produced > entry.size) throw new ArchiveLimitError(`${entry.name}: it holds more than the ${entry.size} bytes its header declares`);
    crc = crc32(chunk, crc);
    return chunk;
  };
  if (entry.method === 0) for await (const chunk of raw()) yield check(chunk);
  else {
    const inflate = zlib.createInflateRaw({ chunkSize: 64 * 1024 });
    const feeding = (async () => {
      try {
        for await (const chunk of raw()) if (!inflate.write(chunk)) await new Promise((resolve) => inflate.once('drain', resolve));
        inflate.end();
      } catch (error) {
        inflate.destroy(error as Error);
      }
    })();
    try {
      for await (const chunk of inflate as AsyncIterable<Buffer>) yield check(chunk);
    } finally {
      inflate.destroy();
      await feeding;
    }
  }
  if (produced !== entry.size) throw new ArchiveFormatError(`${entry.name}: it holds ${produced} bytes, not the ${entry.size} declared`);
  if (crc !== entry.crc) throw new ArchiveFormatError(`${entry.name}: its CRC-32 does not match (a damaged archive)`);
}

/** Largest zip written (no ZIP64): entries and offsets in 32 bits. */
export const ZIP_MAX_ENTRIES = 65_535;
export const ZIP_MAX_BYTES = 0xffffffff;

export type ZipWritten = { name: string; crc: number; compressedSize: number; size: number; offset: number; mode: number; mtime: Date; directory: boolean };

export function zipLocalHeader(name: string, mtime: Date, directory: boolean): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const head = Buffer.alloc(30);
  const { time, date } = dosTime(mtime);
  head.writeUInt32LE(LOCAL, 0);
  head.writeUInt16LE(20, 4);
  head.writeUInt16LE(directory ? 0x800 : 0x808, 6); // UTF-8 names; sizes in a data descriptor after the data
  head.writeUInt16LE(directory ? 0 : 8, 8);
  head.writeUInt16LE(time, 10);
  head.writeUInt16LE(date, 12);
  head.writeUInt16LE(nameBytes.length, 26);
  return Buffer.concat([head, nameBytes]);
}

export function zipDataDescriptor(entry: ZipWritten): Buffer {
  const out = Buffer.alloc(16);
  out.writeUInt32LE(0x08074b50, 0);
  out.writeUInt32LE(entry.crc, 4);
  out.writeUInt32LE(entry.compressedSize, 8);
  out.writeUInt32LE(entry.size, 12);
  return out;
}

export function zipCentralDirectory(entries: readonly ZipWritten[], offset: number): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const nameBytes = Buffer.from(entry.name, 'utf8');
    const head = Buffer.alloc(46);
    const { time, date } = dosTime(entry.mtime);
    head.writeUInt32LE(CENTRAL, 0);
    head.writeUInt16LE((3 << 8) | 20, 4); // made by Unix: the mode is in the external attributes
    head.writeUInt16LE(20, 6);
    head.writeUInt16LE(entry.directory ? 0x800 : 0x808, 8);
    head.writeUInt16LE(entry.directory ? 0 : 8, 10);
    head.writeUInt16LE(time, 12);
    head.writeUInt16LE(date, 14);
    head.writeUInt32LE(entry.crc, 16);
    head.writeUInt32LE(entry.compressedSize, 20);
    head.writeUInt32LE(entry.size, 24);
    head.writeUInt16LE(nameBytes.length, 28);
    head.writeUInt32LE(((((entry.directory ? 0o040000 : 0o100000) | (entry.mode & 0o7777)) << 16) | (entry.directory ? 0x10 : 0)) >>> 0, 38);
    head.writeUInt32LE(entry.offset, 42);
    parts.push(head, nameBytes);
  }
  const directory = Buffer.concat(parts);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([directory, end]);
}
